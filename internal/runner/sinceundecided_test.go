package runner

import (
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestSinceUndecided: with -since, an earlier undecided result (too
// noisy to call) is not reused, neither as it was nor after its tests run
// again: the mutant is measured again. Every other verdict is reused.
func TestSinceUndecided(t *testing.T) {
	prevDir, out := t.TempDir(), t.TempDir()
	j, err := results.OpenJournal(filepath.Join(out, results.JournalFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	r := testRun(&Campaign{Out: out, Since: prevDir}, "")
	r.out, r.results = outState{journal: j}, map[resultKey]*results.LevelResult{}
	r.since = sinceState{retest: map[resultKey]*results.LevelResult{}}
	for _, st := range score.Statuses {
		lr := &results.LevelResult{Status: st}
		id := string(st)
		ok, err := r.take(prevDir, id, results.Opt, lr)
		if err != nil {
			t.Fatal(err)
		}
		r.since.retest[resultKey{id, results.Opt}] = lr
		retested := r.retested(id, results.Opt)
		if want := st != score.Undecided; ok != want || (retested != nil) != want || (r.results[resultKey{id, results.Opt}] != nil) != want {
			t.Errorf("%s: taken %v, retested %v, in results %v; want %v", st, ok, retested != nil, r.results[resultKey{id, results.Opt}] != nil, want)
		}
	}
	entries, _, err := results.ReadJournal(filepath.Join(out, results.JournalFile))
	if err != nil || len(entries) != len(score.Statuses)-1 {
		t.Errorf("journal: %d entries (%v), want %d", len(entries), err, len(score.Statuses)-1)
	}
}
