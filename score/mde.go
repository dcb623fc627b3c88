package score

import (
	"math"
	"slices"
)

// DetectPower is the power at which MinDetectable states the smallest
// detectable effect.
const DetectPower = 0.8

// efficiency is the test's asymptotic relative efficiency against the
// t-test for a shift of normal data (Pitman, TwoSample.Efficiency): 2/pi
// for KS, 3/pi for MWU.
func (t Test) efficiency() float64 { return t.def().Efficiency }

// MinDetectable is the smallest slowdown, as a ratio mutant/baseline, that
// test t detects with power DetectPower at the one-sided level with n
// samples each, for timings with the noise of baseline: with sigma the
// robust standard deviation of log(baseline) (1.4826 times its median
// absolute deviation; the standard deviation when that is 0),
//
//	MDE = exp((z(1-level) + z(DetectPower)) * sigma * sqrt(2/n) / sqrt(ARE))
//
// where ARE is the test's efficiency against the t-test for a shift of
// normal data (2/pi for KS, 3/pi for MWU). It is the normal-theory sample
// size formula read backwards: an approximation for a shift on the log
// scale, good to a few tenths of a percent of the ratio at n >= 10 (see
// the tests). It returns 1 for a constant baseline (any increase is
// visible) and NaN when baseline has a value <= 0 or n < 1.
func MinDetectable(baseline []float64, n int, level float64, t Test) float64 {
	if n < 1 || len(baseline) == 0 {
		return math.NaN()
	}
	logs := make([]float64, len(baseline))
	for i, x := range baseline {
		if !(x > 0) {
			return math.NaN()
		}
		logs[i] = math.Log(x)
	}
	sigma := robustSD(logs)
	if sigma == 0 {
		return 1
	}
	za := math.Sqrt2 * math.Erfcinv(2*level)
	zb := math.Sqrt2 * math.Erfcinv(2*(1-DetectPower))
	return math.Exp((za + zb) * sigma * math.Sqrt(2/float64(n)) / math.Sqrt(t.efficiency()))
}

// robustSD is 1.4826 times the median absolute deviation of xs, or the
// standard deviation when that is 0 (heavy ties).
func robustSD(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	m := median(s)
	dev := make([]float64, len(s))
	for i, x := range s {
		dev[i] = math.Abs(x - m)
	}
	slices.Sort(dev)
	if mad := median(dev); mad > 0 {
		return 1.4826 * mad
	}
	mean := 0.0
	for _, x := range s {
		mean += x
	}
	mean /= float64(len(s))
	v := 0.0
	for _, x := range s {
		v += (x - mean) * (x - mean)
	}
	if len(s) < 2 {
		return 0
	}
	return math.Sqrt(v / float64(len(s)-1))
}
