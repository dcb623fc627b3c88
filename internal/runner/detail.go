package runner

import (
	"fmt"
	"strings"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// sampleDetail summarizes a measured result for the log by the test that
// decided it: a kill by its rejecting test with the smallest p-value; a
// survivor by its test with the largest upper bound (the one closest to
// the margin it ruled out); anything else by the smallest p-value of a
// test that could reject (not excluded). A test left out of the decision
// (a constant B/op, say) is never the one cited.
func sampleDetail(lr *results.LevelResult) string {
	if lr.InferredFrom != "" {
		return "inferred from " + lr.InferredFrom
	}
	n, best := 0, -1
	for i, t := range lr.Benchmarks {
		n = max(n, t.NMutant)
		if best < 0 || decides(lr.Status, t, lr.Benchmarks[best]) {
			best = i
		}
	}
	if best < 0 {
		return fmt.Sprintf("%.1fs", lr.Seconds)
	}
	t := lr.Benchmarks[best]
	if lr.Status == score.Survived && t.Upper > 0 {
		return fmt.Sprintf("n=%d, %s %s ratio %s, upper %s, %.1fs", n, t.Benchmark, t.Metric, ratioText(t.Ratio), ratioText(t.Upper), lr.Seconds)
	}
	return fmt.Sprintf("n=%d, %s %s p=%.3g ratio %s, %.1fs", n, t.Benchmark, t.Metric, t.P, ratioText(t.Ratio), lr.Seconds)
}

// decides reports whether test a says more than b about a result of
// status st (see sampleDetail).
func decides(st score.Status, a, b score.TestResult) bool {
	switch {
	case st == score.Killed && a.Reject != b.Reject:
		return a.Reject
	case st == score.Survived && (a.Upper > 0) != (b.Upper > 0):
		return a.Upper > 0
	case st == score.Survived && a.Upper > 0:
		return a.Upper > b.Upper
	case a.Excluded != b.Excluded:
		return !a.Excluded
	}
	return a.P < b.P
}

// ratioText formats a ratio for the log with three significant digits,
// "inf (baseline median 0)" for an unbounded one.
func ratioText(x float64) string {
	return strings.TrimSuffix(score.RatioX(x), "x")
}
