package score

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// SuggestMinEffect is MinEffectSuggestion without the error: NaN when it
// cannot suggest (no ratios, or too few trials).
func SuggestMinEffect(ratios []float64, alpha float64) float64 {
	m, err := MinEffectSuggestion(ratios, alpha)
	if err != nil {
		return math.NaN()
	}
	return m
}

// MinEffectTrials is the fewest A/A trials from which MinEffectSuggestion
// suggests a minimum effect at alpha: ceil(1/alpha), 20 at 0.05. With
// fewer the (1-alpha) quantile of the trials' ratios is only their largest,
// and a few trials whose mutant happened to be faster would suggest 1,
// which turns the minimum effect off.
func MinEffectTrials(alpha float64) int {
	if !(alpha > 0 && alpha < 1) {
		return 1
	}
	return int(math.Ceil(1/alpha - 1e-9))
}

// MinEffectSuggestion suggests a Rule.MinEffect from A/A trials (a binary
// against itself or against a null mutant that changes only the code
// layout): ratios holds each trial's largest time median ratio
// mutant/baseline. It is the (1-alpha) empirical quantile of the ratios,
// rounded up to the next 0.001 and at least 1, so that layout and noise
// alone reach it in at most a share alpha of the trials. With fewer than
// MinEffectTrials(alpha) usable ratios (positive and bounded) it returns an
// error saying that the trials are too few and how many would do.
func MinEffectSuggestion(ratios []float64, alpha float64) (float64, error) {
	var rs []float64
	for _, r := range ratios {
		if r > 0 && !math.IsInf(r, 0) && r < UnboundedRatio {
			rs = append(rs, r)
		}
	}
	if need := MinEffectTrials(alpha); len(rs) < need {
		return math.NaN(), fmt.Errorf("too few trials to suggest a minimum effect: %d A/A time ratios cannot place their %g%% quantile; run at least %d trials", len(rs), 100*(1-alpha), need)
	}
	slices.Sort(rs)
	q := stat.Quantile(1-alpha, stat.Empirical, rs, nil)
	return max(1, math.Ceil(q*1000-1e-9)/1000), nil
}
