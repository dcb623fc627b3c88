package main

import (
	"math"
	"slices"
	"testing"

	"github.com/perfmut/perfmut/score"
)

// TestExhaustive checks the KS calibration's constraints on a small
// simulation: for every family size the chosen levels are attainable
// p-values (or 0), at most 1.5 alpha/K with the futility stop (1.75 for
// K = 1) and alpha/K
// without, the first look kills a full separation (1/252) while that is
// within half of alpha/K and nothing else, and the rate is within the
// limit and within window of the best allowed combination, found here by a
// second, plain enumeration.
func TestExhaustive(t *testing.T) {
	sim := simulateNull(score.KS, score.Rule{}.Looks(), 20000, 42)
	for _, fut := range []float64{score.DefaultFutilityPower, 0} {
		ths, rates, ok := sim.exhaustive(0.05, fut, 12)
		if !ok {
			t.Fatalf("futility %v: KS at alpha 0.05 not searched exhaustively", fut)
		}
		for k, th := range ths {
			beta := 0.05 / float64(k+1)
			levels := sim.levels(th)
			for i, l := range levels {
				if l > levelCap(fut, k+1)*beta*(1+1e-6) || l != 0 && !slices.Contains(sim.pvals[i], l/(1+1e-9)) {
					t.Errorf("futility %v K=%d look %d: level %v not an attainable p-value within %v beta", fut, k+1, i, l, levelCap(fut, k+1))
				}
			}
			if 1.0/252 <= beta/2 && th[0] < 0 {
				t.Errorf("futility %v K=%d: the first look cannot kill (levels %v)", fut, k+1, levels)
			}
			if th[0] > 0 {
				t.Errorf("futility %v K=%d: the first look kills more than a full separation (levels %v)", fut, k+1, levels)
			}
			sim.closeTests(beta, fut)
			limit := limitOf(beta, len(sim.ranks))
			if r := sim.rate(th); r != rates[k] || r > limit {
				t.Errorf("futility %v K=%d: rate %v (reported %v), limit %v", fut, k+1, r, rates[k], limit)
			}
			if best := bestRate(sim, beta, fut, limit, k+1); rates[k] < best-window*beta {
				t.Errorf("futility %v K=%d: rate %v, below the best %v by more than %v beta", fut, k+1, rates[k], best, window)
			}
		}
	}
}

// TestPaid checks the levels of one test beside c paid counts on a small
// simulation: attainable levels within the cap of a family of one, the
// first look killing a full separation only, and a rate within the
// limit of Alpha less c full separations, so that the late counts' budget
// holds 1/252 for each count; and more than row 2's rate (what the test
// took with a count in its family).
func TestPaid(t *testing.T) {
	sim := simulateNull(score.KS, score.Rule{}.Looks(), 20000, 42)
	const alpha, fut = 0.05, score.DefaultFutilityPower
	_, rates, _ := sim.exhaustive(alpha, fut, 2)
	ths, prates := sim.paid(alpha, fut)
	if len(ths) != maxPaid {
		t.Fatalf("%d paid rows, want %d", len(ths), maxPaid)
	}
	top := 1.0 / 252 * (1 + 1e-9)
	for c, th := range ths {
		beta := alpha - float64(c+1)*top
		for i, l := range sim.levels(th) {
			if l > levelCap(fut, 1)*alpha*(1+1e-6) || l != 0 && !slices.Contains(sim.pvals[i], l/(1+1e-9)) {
				t.Errorf("beside %d: level %v at look %d not an attainable p-value within the cap", c+1, l, i)
			}
		}
		if th[0] != 0 {
			t.Errorf("beside %d: first look threshold %d, want 0 (a full separation)", c+1, th[0])
		}
		sim.closeTests(beta, fut)
		if r := sim.rate(th); r != prates[c] || r > limitOf(beta, len(sim.ranks)) || r <= rates[1] {
			t.Errorf("beside %d: rate %v (reported %v), want within %v and above row 2's %v", c+1, r, prates[c], limitOf(beta, len(sim.ranks)), rates[1])
		}
	}
}

// bestRate enumerates every threshold combination within the cap (first
// look as exhaustive requires: a full separation only, and it when
// 1/252 is within half of beta) and returns the largest rate within limit.
func bestRate(sim *nullSim, beta, fut, limit float64, k int) float64 {
	sim.beta = beta * levelCap(fut, k)
	maxr := make([]int, len(sim.looks))
	for k := range maxr {
		maxr[k] = sim.maxRank(k)
	}
	first := -1
	if 1.0/252 <= beta/2 {
		first = 0
	}
	best := 0.0
	maxr[0] = min(maxr[0], 0)
	th := make([]int, len(maxr))
	var try func(k int)
	try = func(k int) {
		if k == len(th) {
			if r := sim.rate(th); r <= limit {
				best = max(best, r)
			}
			return
		}
		lo := -1
		if k == 0 {
			lo = first
		}
		for th[k] = lo; th[k] <= maxr[k]; th[k]++ {
			try(k + 1)
		}
	}
	try(0)
	return best
}

// TestWilson checks the interval against values computed independently:
// 5 of 10 gives [0.2366, 0.7634], 0 of 100 an upper end of 0.0370.
func TestWilson(t *testing.T) {
	for _, tt := range []struct {
		rate   float64
		n      int
		lo, hi float64
	}{
		{0.5, 10, 0.236593090512564, 0.7634069094874361},
		{0, 100, 0, 0.03699349820698568},
		{0.05, 20000, 0.047064962861556744, 0.05310786958893743},
	} {
		lo, hi := wilson(tt.rate, tt.n)
		if math.Abs(lo-tt.lo) > 1e-12 || math.Abs(hi-tt.hi) > 1e-12 {
			t.Errorf("wilson(%v, %d) = [%v, %v], want [%v, %v]", tt.rate, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}
