package runner

import (
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestSampleDetailCitesTheDecidingTest: a survivor's log line cites the
// time bound that decided it, not a B/op test left out of the decision
// with a smaller p-value (once "survived (n=30, BenchmarkSet/write B/op
// p=0.0562 ratio 1)"); a kill cites its rejecting test.
func TestSampleDetailCitesTheDecidingTest(t *testing.T) {
	bytes := score.TestResult{Benchmark: "BenchmarkSet/write", Metric: score.BytesPerOp, P: 0.0562, Ratio: 1, Excluded: true, NMutant: 30}
	timeA := score.TestResult{Benchmark: "BenchmarkSet/write", Metric: score.SecPerOp, P: 0.41, Ratio: 1.003, Upper: 1.021, NMutant: 30}
	timeB := score.TestResult{Benchmark: "BenchmarkGet", Metric: score.SecPerOp, P: 0.2, Ratio: 0.998, Upper: 1.034, NMutant: 30}
	lr := &results.LevelResult{Status: score.Survived, Seconds: 12.5, Benchmarks: []score.TestResult{bytes, timeA, timeB}}
	if got, want := sampleDetail(lr), "n=30, BenchmarkGet sec/op ratio 0.998, upper 1.03, 12.5s"; got != want {
		t.Errorf("survivor: %q, want %q", got, want)
	}
	kill := timeA
	kill.P, kill.Reject, kill.Ratio = 0.003, true, 1.4
	lr = &results.LevelResult{Status: score.Killed, Seconds: 3, Benchmarks: []score.TestResult{bytes, timeB, kill}}
	if got, want := sampleDetail(lr), "n=30, BenchmarkSet/write sec/op p=0.003 ratio 1.4, 3.0s"; got != want {
		t.Errorf("kill: %q, want %q", got, want)
	}
	lr.Benchmarks[0].P = 0.001 // excluded, smaller p: still not cited
	if got, want := sampleDetail(lr), "n=30, BenchmarkSet/write sec/op p=0.003 ratio 1.4, 3.0s"; got != want {
		t.Errorf("kill beside an excluded test of smaller p: %q, want %q", got, want)
	}
}
