package runner

import (
	"testing"

	"github.com/perfmut/perfmut/results"
)

func TestSensitivityText(t *testing.T) {
	for _, tc := range []struct {
		detected, missed float64
		want             string
	}{
		{14000, 0, "benchmarks notice +14µs per iteration here"},
		{70000, 7000, "benchmarks notice +70µs per iteration here, not +7µs"},
		{0, 1e6, "benchmarks notice nothing up to +1ms per iteration here"},
		{2.5e6, 650, "benchmarks notice +2.5ms per iteration here, not +650ns"},
		{1.4e8, 999.6, "benchmarks notice +140ms per iteration here, not +1µs"},
		{1.2e5, 3.04, "benchmarks notice +120µs per iteration here, not +3ns"},
	} {
		if got := sensitivityText(results.Sensitivity{DetectedNanos: tc.detected, MissedNanos: tc.missed}); got != tc.want {
			t.Errorf("sensitivityText(detected %g, missed %g) = %q, want %q", tc.detected, tc.missed, got, tc.want)
		}
	}
}
