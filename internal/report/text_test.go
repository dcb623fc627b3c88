package report

import (
	"bytes"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestWriteScores: one line per level; a level without valid mutants (a
// -changed-since run that touched nothing mutable) has no score, not 0%.
func TestWriteScores(t *testing.T) {
	for _, tc := range []struct {
		rep  *results.Report
		want string
	}{
		{fixture(t), "opt   score  45.5% (5 killed of 11 valid; killed among covered 71.4%): 5 killed, 2 survived, 1 undecided, 4 no-coverage, 1 compile-error, 1 fne, 1 timeout, 1 crash\n" +
			"      undecided 1 (outside the score): no kill within -max-samples, and too noisy to rule out a slowdown; perfmut report lists them\n" +
			"noopt score  54.5% (6 killed of 11 valid; killed among covered 85.7%): 6 killed, 1 survived, 1 undecided, 4 no-coverage, 1 compile-error, 2 fne, 1 timeout\n" +
			"      undecided 1 (outside the score): no kill within -max-samples, and too noisy to rule out a slowdown; perfmut report lists them\n"},
		{&results.Report{Schema: results.Schema, Score: map[string]results.LevelScore{results.Opt: {}}}, "opt   score     - (no valid mutants)\n"},
		// No covered mutant decided (0 of 0): no "killed among covered".
		{noCoverageReport(), "opt   score   0.0% (0 killed of 2 valid): 2 no-coverage\n"},
	} {
		var b bytes.Buffer
		WriteScores(&b, tc.rep)
		if b.String() != tc.want {
			t.Errorf("WriteScores:\n%s\nwant\n%s", b.String(), tc.want)
		}
	}
}

// noCoverageReport has two no-coverage mutants at opt and nothing else.
func noCoverageReport() *results.Report {
	rep := &results.Report{Schema: results.Schema, Score: map[string]results.LevelScore{results.Opt: {Valid: 2}}}
	for _, id := range []string{"a", "b"} {
		m := results.Mutant{Results: map[string]*results.LevelResult{results.Opt: {Status: score.NoCoverage}}}
		m.ID = id
		rep.Mutants = append(rep.Mutants, m)
	}
	return rep
}
