package engine

import (
	"testing"

	"github.com/perfmut/perfmut/operators"
)

// TestMetricChoice: each verdict says which metric it rests on and why.
func TestMetricChoice(t *testing.T) {
	for _, tc := range []struct {
		op             string
		counted, timed int
		counting       bool
		metric, why    string
	}{
		{"spin-loop", 2, 0, true, "instructions/op", "work: an instruction count sees it"},
		{"sleep", 0, 2, true, "sec/op", "wait: only wall time sees it"},
		{"lock-contention", 0, 1, true, "sec/op", "contention on concurrent benchmarks: only wall time sees it"},
		{"lock-contention", 1, 1, true, "instructions/op and sec/op", "contention: counted on sequential benchmarks, wall time on concurrent ones"},
		{"spin-loop", 0, 2, false, "sec/op", "-measure time"},
		{"", 1, 0, true, "instructions/op", "trial: an instruction count sees it"},
	} {
		got := metricChoice(operators.ByName(tc.op), tc.counted, tc.timed, tc.counting)
		if got != (MetricChoice{Metric: tc.metric, Why: tc.why}) {
			t.Errorf("%s (%d counted, %d timed, counting %v) = %+v, want %q, %q", tc.op, tc.counted, tc.timed, tc.counting, got, tc.metric, tc.why)
		}
	}
}
