package score

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// BootstrapResamples is the number of bootstrap resamples behind the
// interval of MedianRatio.
const BootstrapResamples = 1000

// MedianRatio is the effect size of one test: the ratio of the mutant's
// median to the baseline's, with a 95% percentile-bootstrap interval (each
// sample resampled with replacement BootstrapResamples times; the interval
// is the 2.5% and 97.5% empirical quantiles of the resampled ratios). The
// resampling is drawn from a PCG generator seeded with seed, so the result
// is a function of the inputs and seed alone. The inputs are not modified.
//
// The median of an even-sized sample is the mean of its two middle values.
// A baseline median of 0 gives +Inf (or 1 when the mutant's median is 0 too;
// -Inf when it is negative); an empty sample gives NaN for all three.
func MedianRatio(baseline, mutant []float64, seed int64) (ratio, lo, hi float64) {
	if len(baseline) == 0 || len(mutant) == 0 {
		nan := math.NaN()
		return nan, nan, nan
	}
	x, y := slices.Clone(baseline), slices.Clone(mutant)
	slices.Sort(x)
	slices.Sort(y)
	ratio = medianRatio(median(x), median(y))

	rng := rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)
	countX, countY := make([]int, len(x)), make([]int, len(y))
	ratios := make([]float64, BootstrapResamples)
	for i := range ratios {
		mx := resampledMedian(rng, x, countX)
		my := resampledMedian(rng, y, countY)
		ratios[i] = medianRatio(mx, my)
	}
	slices.Sort(ratios)
	lo = stat.Quantile(0.025, stat.Empirical, ratios, nil)
	hi = stat.Quantile(0.975, stat.Empirical, ratios, nil)
	return ratio, lo, hi
}

// median of a sorted, non-empty sample.
func median(sorted []float64) float64 {
	n := len(sorted)
	return (sorted[(n-1)/2] + sorted[n/2]) / 2
}

func medianRatio(base, mut float64) float64 {
	if base == 0 {
		switch {
		case mut == 0:
			return 1
		case mut > 0:
			return math.Inf(1)
		case mut < 0:
			return math.Inf(-1)
		}
	}
	return mut / base
}

// resampledMedian draws len(sorted) indices with replacement and returns
// the median of the values drawn, by counting draws per index (count is
// scratch space of the same length) instead of sorting the resample.
func resampledMedian(rng *rand.PCG, sorted []float64, count []int) float64 {
	n := len(sorted)
	clear(count)
	// Lemire's multiply-shift maps 32 uniform bits to [0, n); one draw of
	// the generator gives two indices (the bias, n/2^32, is negligible).
	for i := 0; i < n; i += 2 {
		u := rng.Uint64()
		count[(u&0xffffffff)*uint64(n)>>32]++
		if i+1 < n {
			count[(u>>32)*uint64(n)>>32]++
		}
	}
	lo, hi := (n-1)/2, n/2 // order statistics, 0-based
	var vlo float64
	seen := 0
	for i, c := range count {
		if c == 0 {
			continue
		}
		if seen <= lo && lo < seen+c {
			vlo = sorted[i]
		}
		if seen <= hi && hi < seen+c {
			return (vlo + sorted[i]) / 2
		}
		seen += c
	}
	panic("unreachable")
}
