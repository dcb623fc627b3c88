package compare

import (
	"reflect"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestGateFailuresUnbounded: a metric slower from a median of 0 (0 -> 64
// B/op) fails the gate with a line saying so, not "1.8e+308x"; a bounded
// one keeps its ratio; a slower metric within -max-slowdown passes.
func TestGateFailuresUnbounded(t *testing.T) {
	rep := &results.Comparison{MaxSlowdown: 0.05, Benchmarks: []results.CompareBenchmark{{Name: "BenchmarkSet", Metrics: []results.CompareMetric{
		{Metric: score.BytesPerOp, Verdict: score.Slower, Old: 0, New: 64, Ratio: score.UnboundedRatio},
		{Metric: score.SecPerOp, Verdict: score.Slower, Ratio: 1.234},
		{Metric: score.AllocsPerOp, Verdict: score.Slower, Ratio: 1.01},
	}}}}
	want := []string{"BenchmarkSet B/op inf (baseline median 0)", "BenchmarkSet sec/op 1.23x"}
	if got := gateFailures(rep); !reflect.DeepEqual(got, want) {
		t.Errorf("gateFailures = %q, want %q", got, want)
	}
}
