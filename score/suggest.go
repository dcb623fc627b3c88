package score

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// SuggestMinEffect suggests a Rule.MinEffect from A/A trials (a binary
// against itself or against a null mutant that changes only the code
// layout): ratios holds each trial's largest time median ratio
// mutant/baseline. It is the (1-alpha) empirical quantile of the ratios,
// rounded up to the next 0.001 and at least 1, so that layout and noise
// alone reach it in at most a share alpha of the trials. It returns NaN
// without ratios.
func SuggestMinEffect(ratios []float64, alpha float64) float64 {
	var rs []float64
	for _, r := range ratios {
		if r > 0 && !math.IsInf(r, 0) && r < UnboundedRatio {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return math.NaN()
	}
	slices.Sort(rs)
	q := stat.Quantile(1-alpha, stat.Empirical, rs, nil)
	return max(1, math.Ceil(q*1000-1e-9)/1000)
}
