package report

import (
	"bytes"
	"testing"
)

// TestWriteScores: one line per level; a level without valid mutants (a
// -changed-since run that touched nothing mutable) has no score, not 0%.
func TestWriteScores(t *testing.T) {
	for _, tc := range []struct {
		rep  *Report
		want string
	}{
		{fixture(t), "opt   score  45.5% (5 killed of 11 valid; covered 71.4%): 5 killed, 2 survived, 4 no-coverage, 1 compile-error, 1 fne, 1 timeout, 1 crash\n" +
			"noopt score  54.5% (6 killed of 11 valid; covered 85.7%): 6 killed, 1 survived, 4 no-coverage, 1 compile-error, 2 fne, 1 timeout\n"},
		{&Report{Schema: Schema, Score: map[string]LevelScore{Opt: {}}}, "opt   score     - (no valid mutants)\n"},
	} {
		var b bytes.Buffer
		WriteScores(&b, tc.rep)
		if b.String() != tc.want {
			t.Errorf("WriteScores:\n%s\nwant\n%s", b.String(), tc.want)
		}
	}
}
