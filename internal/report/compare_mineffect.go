package report

import "github.com/perfmut/perfmut/results"

// minEffects is the minimum effect of a comparison's verdicts as its
// summaries show it: one for all, or one for time and one for the
// metrics counted under valgrind (-measure instructions) when they differ.
func minEffects(s results.Settings) string {
	t := minEffect(s.MinEffect)
	if s.Measure != "instructions" || s.CountMinEffect <= 0 || s.CountMinEffect == s.MinEffect {
		return t
	}
	return t + " on time, " + minEffect(s.CountMinEffect) + " on instruction counts"
}
