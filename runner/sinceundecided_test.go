package runner

import (
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/score"
)

// TestSinceUndecided: with -since, an earlier undecided result (too
// noisy to call) is not reused, neither as it was nor after its tests run
// again: the mutant is measured again. Every other verdict is reused.
func TestSinceUndecided(t *testing.T) {
	prevDir, out := t.TempDir(), t.TempDir()
	j, err := openJournal(filepath.Join(out, JournalFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	r := &run{c: &Campaign{Out: out, Since: prevDir}, journal: j, results: map[resultKey]*report.LevelResult{}, retest: map[resultKey]*report.LevelResult{}}
	for _, st := range score.Statuses {
		lr := &report.LevelResult{Status: st}
		id := string(st)
		ok, err := r.take(prevDir, id, report.Opt, lr)
		if err != nil {
			t.Fatal(err)
		}
		r.retest[resultKey{id, report.Opt}] = lr
		retested := r.retested(id, report.Opt)
		if want := st != score.Undecided; ok != want || (retested != nil) != want || (r.results[resultKey{id, report.Opt}] != nil) != want {
			t.Errorf("%s: taken %v, retested %v, in results %v; want %v", st, ok, retested != nil, r.results[resultKey{id, report.Opt}] != nil, want)
		}
	}
	entries, _, err := ReadJournal(filepath.Join(out, JournalFile))
	if err != nil || len(entries) != len(score.Statuses)-1 {
		t.Errorf("journal: %d entries (%v), want %d", len(entries), err, len(score.Statuses)-1)
	}
}
