package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestVerdictStatus: the rule's Abstain, and a Continue at the cap, are
// undecided with what was seen, never survived; Survive and Kill keep
// their statuses.
func TestVerdictStatus(t *testing.T) {
	rule := score.Rule{MaxSamples: 30, MinEffect: 1.01, Margin: 1.05}
	wide := []score.TestResult{
		{Benchmark: "BenchmarkJoin", Metric: "sec/op", Ratio: 1.02, RatioLo: 0.5, RatioHi: 1.76},
		{Benchmark: "BenchmarkJoin", Metric: "allocs/op", Ratio: 1, RatioLo: 1, RatioHi: 3},
		{Benchmark: "BenchmarkSplit", Metric: "sec/op", Ratio: 1.01, RatioLo: 0.9, RatioHi: 1.2},
	}
	// The rule's own reason (score.Rule.ruledOut), after other warnings.
	const warning = "undecided: the ratio could still be x1.76 (95% upper bound of the per-round ratios) on BenchmarkJoin sec/op after 30 samples; a slowdown of x1.05 is not ruled out; more samples (-max-samples), a quieter machine or longer samples (-benchtime) would decide it"
	const bare = "undecided after 30 samples (the -max-samples budget): no kill, and the data do not rule out a slowdown of x1.05"
	seen := strings.TrimPrefix(warning, score.UndecidedPrefix) // the status says it
	warned := []string{"look 4 (30 samples) cannot kill: no test can reach the level 0.001 with these values", warning}
	for _, tc := range []struct {
		name   string
		v      score.Verdict
		status score.Status
		reason string
	}{
		{"kill", score.Verdict{Decision: score.Kill, Tests: wide}, score.Killed, ""},
		{"survive", score.Verdict{Decision: score.Survive, Tests: wide}, score.Survived, ""},
		{"abstain", score.Verdict{Decision: score.Abstain, Tests: wide, Warnings: warned, Reason: seen}, score.Undecided, seen},
		{"continue at the cap", score.Verdict{Decision: score.Continue, Tests: wide}, score.Undecided, bare},
		{"abstain without the rule's reason", score.Verdict{Decision: score.Abstain, Tests: wide, Warnings: warned[:1]}, score.Undecided, bare},
	} {
		st, reason := verdictStatus(tc.v, rule)
		if st != tc.status || reason != tc.reason {
			t.Errorf("%s: (%q, %q), want (%q, %q)", tc.name, st, reason, tc.status, tc.reason)
		}
	}
}

// TestLevelScoresUndecided: report.json's score counts undecided mutants
// beside the score, outside its denominator (as equivalent ones), and
// leaves them out of killed among covered.
func TestLevelScoresUndecided(t *testing.T) {
	var ms []results.Mutant
	for i, st := range []score.Status{score.Killed, score.Killed, score.Killed, score.Survived, score.Undecided, score.Undecided, score.NoCoverage, score.Equivalent} {
		m := results.Mutant{Results: map[string]*results.LevelResult{results.Opt: {Status: st}}}
		m.ID = fmt.Sprint(i)
		ms = append(ms, m)
	}
	got := results.LevelScores(ms, []string{results.Opt})[results.Opt]
	want := results.LevelScore{Killed: 3, Valid: 5, Score: 0.6, Covered: 0.75, Undecided: 2}
	if got != want {
		t.Errorf("levelScores = %+v, want %+v", got, want)
	}
}
