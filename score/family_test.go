package score

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestReachableP(t *testing.T) {
	tests := []struct {
		name     string
		baseline []float64
		mutant   []float64
		want     float64
	}{
		{"constant on both sides", []float64{181, 181, 181, 181, 181}, []float64{181, 181, 181, 181, 181}, 1},
		{"all distinct, 5 and 5", []float64{5, 1, 9, 3, 7}, []float64{2, 8, 4, 6, 10}, 1.0 / 252},
		{"all distinct, 6 and 5", []float64{1, 2, 3, 4, 5, 6}, []float64{1.5, 2.5, 3.5, 4.5, 5.5}, 1.0 / 462},
		// Six 1s and four 2s: the best split gives the mutant one 1, d = 0.8;
		// given the ties, d >= 0.8 needs five of the six 1s in the
		// baseline: p = C(6, 5)/C(10, 5) (the continuous formula says
		// C(10, 1)/C(10, 5)).
		{"ties across the split", []float64{2, 1, 1, 2, 1}, []float64{1, 1, 2, 2, 1}, 6.0 / 252},
		// Five 1s and five 2s split cleanly: d = 1.
		{"ties within each side", []float64{2, 2, 2, 1, 1}, []float64{1, 1, 1, 2, 2}, 1.0 / 252},
		// The one 1025 is in the mutant's half of the splits.
		{"one rare value", []float64{1024, 1024, 1024, 1024, 1024}, []float64{1024, 1025, 1024, 1024, 1024}, 0.5},
		{"empty", nil, []float64{1}, 1},
	}
	for _, tt := range tests {
		b, m := slices.Clone(tt.baseline), slices.Clone(tt.mutant)
		if got := KS.ReachableP(tt.baseline, tt.mutant); !close(got, tt.want) {
			t.Errorf("%s: ReachableP = %v, want %v", tt.name, got, tt.want)
		}
		if !slices.Equal(b, tt.baseline) || !slices.Equal(m, tt.mutant) {
			t.Errorf("%s: ReachableP modified its input", tt.name)
		}
	}
}

// TestReachablePEnumerated checks ReachableP against the smallest p-value
// over every split of the pooled values, for random tied samples.
func TestReachablePEnumerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for range 300 {
		n1, n2 := 1+rng.IntN(5), 1+rng.IntN(5)
		pooled := make([]float64, n1+n2)
		levels := 1 + rng.IntN(4)
		for i := range pooled {
			pooled[i] = float64(rng.IntN(levels))
		}
		best := 1.0
		for mask := 0; mask < 1<<(n1+n2); mask++ {
			var b, m []float64
			for i, x := range pooled {
				if mask>>i&1 == 1 {
					b = append(b, x)
				} else {
					m = append(m, x)
				}
			}
			if len(b) != n1 {
				continue
			}
			_, p := KS.PValue(b, m)
			best = min(best, p)
		}
		if got := KS.ReachableP(pooled[:n1], pooled[n1:]); !close(got, best) {
			t.Fatalf("KS.ReachableP(%v, %v) = %v, enumeration gives %v", pooled[:n1], pooled[n1:], got, best)
		}
	}
}

func TestAdjustFamily(t *testing.T) {
	const p5 = 1.0 / 252 // all distinct, n = 5
	tests := []struct {
		name  string
		ps    []float64
		pmins []float64
		level float64
		c     Correction
		adj   []float64
		in    []bool
	}{
		{"constant metrics left out", []float64{p5, 1, 1}, []float64{p5, 1, 1}, 0.0125, Holm,
			[]float64{p5, 1, 1}, []bool{true, false, false}},
		{"tied metric left out", []float64{p5, 0.5, 1}, []float64{p5, 10.0 / 252, 1}, 0.0125, Holm,
			[]float64{p5, 1, 1}, []bool{true, false, false}},
		{"three reachable tests", []float64{p5, 0.5, 0.2}, []float64{p5, p5, p5}, 0.0125, Holm,
			[]float64{3 * p5, 0.5, 0.4}, []bool{true, true, true}},
		{"bonferroni over the family", []float64{p5, 0.2, 1}, []float64{p5, p5, 1}, 0.0125, Bonferroni,
			[]float64{2 * p5, 0.4, 1}, []bool{true, true, false}},
		// Four tests: 1/252 > 0.0125/4, so K = 4 leaves none in.
		{"none can reach", []float64{p5, p5, p5, p5}, []float64{p5, p5, p5, p5}, 0.0125, Holm,
			[]float64{1, 1, 1, 1}, []bool{false, false, false, false}},
		{"no correction keeps all", []float64{p5, 1}, []float64{p5, 1}, 0.0125, None,
			[]float64{p5, 1}, []bool{true, true}},
		{"unknown pmins keep all", []float64{p5, 1}, nil, 0.0125, Holm,
			[]float64{2 * p5, 1}, []bool{true, true}},
	}
	for _, tt := range tests {
		adj, in := AdjustFamily(tt.ps, tt.pmins, tt.level, tt.c)
		if !slices.Equal(in, tt.in) {
			t.Errorf("%s: in = %v, want %v", tt.name, in, tt.in)
		}
		for i := range adj {
			if !close(adj[i], tt.adj[i]) {
				t.Errorf("%s: adj = %v, want %v", tt.name, adj, tt.adj)
				break
			}
		}
	}
}

func TestConditionalPower(t *testing.T) {
	// p = 0.5 is z = 0: CP = 1 - Phi(c / sqrt(1-t)); c = 1.959964 for 0.025.
	if got, want := ConditionalPower(0.5, 0.5, 0.025), 1-0.5*math.Erfc(-1.959964/math.Sqrt(0.5)/math.Sqrt2); math.Abs(got-want) > 1e-6 {
		t.Errorf("ConditionalPower(0.5, 0.5, 0.025) = %v, want %v", got, want)
	}
	if got := ConditionalPower(1, 0.5, 0.025); got != 0 {
		t.Errorf("ConditionalPower(1, ...) = %v, want 0", got)
	}
	if ConditionalPower(0.01, 1, 0.025) != 1 || ConditionalPower(0.03, 1, 0.025) != 0 {
		t.Error("at t = 1 the conditional power is whether p reaches the level")
	}
	// The futility boundaries with the defaults (one test, the last look's
	// share 0.05/6): at n = 5 (t = 1/6) d = 0.4 (p = 120/252) is futile,
	// d = 0.6 (p = 45/252) is not; at n = 10 (t = 1/3) d = 0.3 is futile,
	// d = 0.4 is not.
	for _, tt := range []struct {
		p, t   float64
		futile bool
	}{{120.0 / 252, 1.0 / 6, true}, {45.0 / 252, 1.0 / 6, false}, {77520.0 / 184756, 1.0 / 3, true}, {38760.0 / 184756, 1.0 / 3, false}} {
		if cp := ConditionalPower(tt.p, tt.t, 0.05/6); (cp < DefaultFutilityPower) != tt.futile {
			t.Errorf("p = %v at t = %v: conditional power %v, futile want %v", tt.p, tt.t, cp, tt.futile)
		}
	}
	prev := 1.0
	for p := 0.001; p < 1; p += 0.01 {
		cp := ConditionalPower(p, 1.0/3, 0.0125)
		if cp > prev || cp < 0 || cp > 1 {
			t.Fatalf("conditional power %v at p = %v: not in [0, 1] or not falling with p", cp, p)
		}
		prev = cp
	}
}
