package noise

import (
	"math"
	"slices"
)

// Spread is how much a benchmark's baseline samples vary between
// themselves: on wall time, mostly the machine's noise.
type Spread struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	// MaxMin is the largest sample over the smallest (1 for constant
	// samples); NaN when a sample is not positive.
	MaxMin float64 `json:"max_min"`
	// CV is the robust coefficient of variation: 1.4826 times the median
	// absolute deviation, over the median (the standard deviation over the
	// mean for normal data, but not moved by a few stalled samples).
	CV       float64  `json:"cv"`
	Warnings []string `json:"warnings,omitempty"`
}

// spreadOf returns the spread of samples. Fewer than 3 samples, or a
// sample that is not positive, give a warning; no samples give NaNs.
func spreadOf(samples []float64) Spread {
	sp := Spread{N: len(samples), Median: math.NaN(), MaxMin: math.NaN(), CV: math.NaN()}
	if len(samples) == 0 {
		sp.Warnings = append(sp.Warnings, "no samples")
		return sp
	}
	s := slices.Sorted(slices.Values(samples))
	sp.Median = median(s)
	dev := make([]float64, len(s))
	for i, x := range s {
		dev[i] = math.Abs(x - sp.Median)
	}
	slices.Sort(dev)
	if sp.Median != 0 {
		sp.CV = 1.4826 * median(dev) / math.Abs(sp.Median)
	}
	if s[0] > 0 {
		sp.MaxMin = s[len(s)-1] / s[0]
	} else {
		sp.Warnings = append(sp.Warnings, "a sample is not positive: no max/min")
	}
	if len(s) < 3 {
		sp.Warnings = append(sp.Warnings, "fewer than 3 samples: the spread is a guess")
	}
	return sp
}

// median of sorted s (not empty).
func median(s []float64) float64 {
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}
