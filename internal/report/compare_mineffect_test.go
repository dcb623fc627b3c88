package report

import (
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestCompareMinEffects: a comparison's summary names the minimum effect
// of each kind of metric it used: counted metrics had 0.5%, not the 5.0%
// of time the summary claimed for all.
func TestCompareMinEffects(t *testing.T) {
	for _, tc := range []struct {
		s    results.Settings
		want string
	}{
		{results.Settings{RuleSettings: results.RuleSettings{Rule: score.Rule{MinEffect: 1.05}}}, "5.0%"},
		{results.Settings{Measure: "instructions", RuleSettings: results.RuleSettings{Rule: score.Rule{MinEffect: 1.05}, CountMinEffect: 1.005}}, "5.0% on time, 0.5% on instruction counts"},
		{results.Settings{Measure: "instructions", RuleSettings: results.RuleSettings{Rule: score.Rule{MinEffect: 1.05}, CountMinEffect: 1.05}}, "5.0%"},
		{results.Settings{}, "off"},
	} {
		if got := minEffects(tc.s); got != tc.want {
			t.Errorf("minEffects(%+v) = %q, want %q", tc.s.RuleSettings, got, tc.want)
		}
	}
}
