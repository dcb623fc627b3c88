package score

import "math"

// AdjustFamily is Adjust with Tarone's reduction of the family for discrete
// tests (Tarone 1990), at a level: the tests whose smallest reachable
// p-value (pmin, from Test.ReachableP) cannot reach their share of the level are
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
	if c == None || pmins == nil {
		in = make([]bool, len(ps))
		for i := range in {
			in[i] = true
		}
		return Adjust(ps, c), in
	}
	_, in = reduceFamily(pmins, func(k int) float64 { return level / float64(k) })
	return adjustIn(ps, in, c), in
}

// reduceFamily is Tarone's reduction with per-test levels perTest(K) for
// a family of K tests (non-increasing in K): the smallest K >= 1 with at
// most K tests whose pmin is at most perTest(K), and those tests.
func reduceFamily(pmins []float64, perTest func(k int) float64) (k int, in []bool) {
	in = make([]bool, len(pmins))
	k = 1
	for ; k < len(pmins); k++ {
		m := 0
		for _, q := range pmins {
			if q <= perTest(k) {
				m++
			}
		}
		if m <= k {
			break
		}
	}
	level := perTest(k)
	for i, q := range pmins {
		in[i] = q <= level
	}
	return k, in
}

// adjustIn adjusts the p-values of the tests in the family with c over the
// family alone; the others get 1.
func adjustIn(ps []float64, in []bool, c Correction) []float64 {
	var family []float64
	for i := range ps {
		if in[i] {
			family = append(family, ps[i])
		}
	}
	fadj := Adjust(family, c)
	adj := make([]float64, len(ps))
	j := 0
	for i := range ps {
		adj[i] = 1
		if in[i] {
			adj[i] = fadj[j]
			j++
		}
	}
	return adj
}

// ConditionalPower is the probability that a test with one-sided p-value p
// after a fraction t of the samples reaches the one-sided level at the last
// look, if the effect continues as observed so far ("current trend"): with
// z = Phi^-1(1-p) and the B-value z*sqrt(t) extrapolated to t = 1,
//
//	CP = 1 - Phi((c - z/sqrt(t)) / sqrt(1-t)),   c = Phi^-1(1 - level).
//
// The KS p-value is turned into a z-score by the normal quantile: an
// approximation that serves only the futility stop, which cannot raise the
// false-kill rate (see Rule.FutilityPower).
func ConditionalPower(p, t, level float64) float64 {
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
