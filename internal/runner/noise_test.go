package runner

import (
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestUndecidedBenchmarks: the benchmarks the noise advice may speak of
// are those that measured a mutant left undecided, at its level and in
// its unit (a count, or else time).
func TestUndecidedBenchmarks(t *testing.T) {
	ms := []results.Mutant{
		{Results: map[string]*results.LevelResult{
			"opt":   {Status: score.Undecided, Benchmarks: []score.TestResult{{Benchmark: "BenchmarkPut", Metric: "sec/op"}, {Benchmark: "BenchmarkPut", Metric: "p99.95-sec/op"}}},
			"noopt": {Status: score.Killed, Benchmarks: []score.TestResult{{Benchmark: "BenchmarkGet", Metric: "sec/op"}}},
		}},
		{Results: map[string]*results.LevelResult{
			"noopt": {Status: score.Undecided, Benchmarks: []score.TestResult{{Benchmark: "BenchmarkSum", Metric: score.InstructionsPerOp}}},
		}},
		{Results: map[string]*results.LevelResult{"opt": nil}},
	}
	matters := undecidedBenchmarks(ms)
	for _, tc := range []struct {
		level, name, unit string
		want              bool
	}{
		{"opt", "BenchmarkPut", score.SecPerOp, true},
		{"noopt", "BenchmarkPut", score.SecPerOp, false},
		{"noopt", "BenchmarkGet", score.SecPerOp, false}, // killed
		{"noopt", "BenchmarkSum", score.InstructionsPerOp, true},
		{"noopt", "BenchmarkSum", score.SecPerOp, false},
	} {
		if got := matters(tc.level, tc.name, tc.unit); got != tc.want {
			t.Errorf("matters(%s, %s, %s) = %v, want %v", tc.level, tc.name, tc.unit, got, tc.want)
		}
	}
}
