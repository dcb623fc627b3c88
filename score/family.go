package score

import (
	"math"
	"slices"
)

// ReachableP is the smallest p-value the one-sided KS test can give for any
// split of the pooled values of baseline and mutant into samples of their
// sizes: the split that gives the mutant the largest values. It is 1 when
// every pooled value is the same (e.g. a constant allocs/op on both sides),
// 1/C(n1+n2, n1) when all values differ, and in between with ties.
//
// Given the pooled values, the test's permutation distribution under "no
// difference" puts every split at equal probability and the p-value is
// valid (conservative with ties) conditionally on them; so a test whose
// ReachableP exceeds its level can never reject, whatever the split, and
// may be left out of the multiple-comparison family (Tarone 1990; see
// AdjustFamily).
func ReachableP(baseline, mutant []float64) float64 {
	n1, n2 := len(baseline), len(mutant)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	pooled := make([]float64, 0, n1+n2)
	pooled = append(append(pooled, baseline...), mutant...)
	slices.Sort(pooled)
	if pooled[0] == pooled[len(pooled)-1] {
		return 1
	}
	// Every x has F_baseline(x) <= min(1, #pooled<=x / n1) and
	// F_mutant(x) >= max(0, (#pooled<=x - n1) / n2); the lowest-n1 split
	// meets both bounds at every x, so it has the largest d, and the
	// p-value falls with d for fixed sizes.
	_, p := OneSidedKS(pooled[:n1], pooled[n1:])
	return p
}

// AdjustFamily is Adjust with Tarone's reduction of the family for discrete
// tests (Tarone 1990), at a level: the tests whose smallest reachable
// p-value (pmin, from ReachableP) cannot reach their share of the level are
// left out of the correction. K is the smallest family size with at most K
// tests whose pmin is at most level/K; the family is those tests, and
// Correction adjusts over them alone (a family of its size). It returns the
// adjusted p-values, in the order of ps, and which tests are in the family;
// a test left out gets the adjusted p-value 1 (it cannot reject). With None
// every test is in and its p-value is its own.
//
// This keeps the family-wise error rate at level: the family depends on the
// pooled values only, and conditionally on them each test's p-value is
// valid and a left-out test can never reject, so the correction over a
// fixed family applies. A nil pmins (or a pmin of 0) keeps every test.
func AdjustFamily(ps, pmins []float64, level float64, c Correction) (adj []float64, in []bool) {
	in = make([]bool, len(ps))
	for i := range in {
		in[i] = true
	}
	if c == None || pmins == nil {
		return Adjust(ps, c), in
	}
	k := 1
	for ; k < len(ps); k++ {
		m := 0
		for _, q := range pmins {
			if q <= level/float64(k) {
				m++
			}
		}
		if m <= k {
			break
		}
	}
	var family []float64
	for i, q := range pmins {
		in[i] = q <= level/float64(k)
		if in[i] {
			family = append(family, ps[i])
		}
	}
	fadj := Adjust(family, c)
	adj = make([]float64, len(ps))
	j := 0
	for i := range ps {
		adj[i] = 1
		if in[i] {
			adj[i] = fadj[j]
			j++
		}
	}
	return adj, in
}

// conditionalPower is the probability that a test with one-sided p-value p
// after a fraction t of the samples reaches the one-sided level at the last
// look, if the effect continues as observed so far ("current trend"): with
// z = Phi^-1(1-p) and the B-value z*sqrt(t) extrapolated to t = 1,
//
//	CP = 1 - Phi((c - z/sqrt(t)) / sqrt(1-t)),   c = Phi^-1(1 - level).
//
// The KS p-value is turned into a z-score by the normal quantile: an
// approximation that serves only the futility stop, which cannot raise the
// false-kill rate (see Rule.FutilityPower).
func conditionalPower(p, t, level float64) float64 {
	if t >= 1 {
		if p <= level {
			return 1
		}
		return 0
	}
	z := math.Sqrt2 * math.Erfcinv(2*p)     // Phi^-1(1-p); -Inf for p = 1
	c := math.Sqrt2 * math.Erfcinv(2*level) // Phi^-1(1-level)
	x := (c - z/math.Sqrt(t)) / math.Sqrt(1-t)
	return 0.5 * math.Erfc(x/math.Sqrt2) // 1 - Phi(x)
}
