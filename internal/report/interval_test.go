package report

import (
	"testing"

	"github.com/perfmut/perfmut/score"
)

// TestRatioPair: an interval says "(baseline median 0)" once, after both
// ratios, when either is unbounded.
func TestRatioPair(t *testing.T) {
	inf := score.UnboundedRatio
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{1.2, 1.5, "[×1.200, ×1.500]"},
		{1.2, inf, "[×1.200, ×inf] (baseline median 0)"},
		{inf, inf, "[×inf, ×inf] (baseline median 0)"},
	} {
		if got := intervalString(score.TestResult{RatioLo: tc.lo, RatioHi: tc.hi}); got != tc.want {
			t.Errorf("intervalString(%g, %g) = %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
	if got, want := ratioPair(inf, inf, "", " – ", ""), "×inf – ×inf (baseline median 0)"; got != want {
		t.Errorf("the HTML interval = %q, want %q", got, want)
	}
}
