package score

import (
	"math"
	"slices"
)

// breakTies returns s with the ties among its pooled values broken at
// random, for the kill rule's test of a metric that is not a count (time
// and custom units): each value v becomes v + gap/2 * u, with gap the
// smallest difference between distinct pooled values and u in [0, 1) drawn
// from seed (the rule's, which Rule.ForMutant mixes with the mutant's
// identity, so that two mutants on one benchmark do not break its ties
// alike), the benchmark, the metric, the side, the value's index and the
// values of its side up to it (so a value keeps its u at every look, and a
// rerun with the same -seed gives the same verdict). Distinct values keep
// their order; tied ones are put in a random order, as if measured with
// more digits.
//
// The values are mixed in so that one seed's tie-break is random over
// fresh data: drawn from the position alone, a seed fixed the order of
// every tie of position i against position j, and one mutant's false-kill
// rate over fresh tied data ranged from 0.021 to 0.104 by its ID (the
// average over IDs was exact). With the values in, each draw is a fresh
// uniform whatever the seed (TestTiedFalseKillsPerMutant).
//
// Why: the rule's levels are calibrated on continuous data, where the
// ranks of the pooled values are uniformly random whatever the
// distribution. With ties broken at random that holds again exactly (under
// no difference every order of the 2n values is equally likely), so the
// calibrated levels spend on integer ns/op what they spend on continuous
// timings; the exact p-value conditional on the tie pattern, compared with
// levels on the continuous test's lattice, spent about half of it.
//
// Counts (B/op, allocs/op) keep their ties: they are exact, their
// increases are handled as deterministic when constant, and a count that
// only varies among a few values should not be ordered by chance. A sample
// without ties, or whose values are all equal, is returned as it is.
func breakTies(s Sample, seed int64) Sample {
	if IsCount(s.Metric) {
		return s
	}
	pooled := append(slices.Clone(s.Baseline), s.Mutant...)
	slices.Sort(pooled)
	gap, ties := math.Inf(1), false
	for i := 1; i < len(pooled); i++ {
		switch d := pooled[i] - pooled[i-1]; {
		case d == 0:
			ties = true
		case d > 0:
			gap = min(gap, d)
		}
	}
	if !ties || math.IsInf(gap, 1) {
		return s
	}
	h := uint64(testSeed(seed, s.Benchmark, s.Metric))
	jitter := func(xs []float64, side uint64) []float64 {
		out := make([]float64, len(xs))
		acc := splitmix(h ^ side<<62)
		for i, x := range xs {
			acc = splitmix(acc ^ math.Float64bits(x))
			u := float64(splitmix(acc^uint64(i))>>11) / (1 << 53)
			out[i] = x + gap/2*u
		}
		return out
	}
	t := s
	t.Baseline, t.Mutant = jitter(s.Baseline, 1), jitter(s.Mutant, 2)
	return t
}

// splitmix is SplitMix64's output function: a well-mixed 64-bit value of x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
