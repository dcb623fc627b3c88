package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
)

// TestCompareBehaviourChanged: testdata/comparemod/behaviour.txtar moves
// the work of Mix from f (3/4 of it) to g at equal total. With -history,
// the model learned from OLD's recorded behaviour says NEW's matches
// none of OLD's clusters and names f's and g's shares, in compare.json,
// as a warning in the text, and in the behaviour store. The time
// verdict is same where it does not depend on the load: with valgrind,
// the comparison counts instructions, and f and g run the same loop over
// as many elements on both sides (the profiles are timed as always);
// without it, only the allocations, none on either side, are asserted.
func TestCompareBehaviourChanged(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	repo := compareRepo(t, "behaviour")
	hist := filepath.Join(t.TempDir(), "hist")
	args := []string{"-sample-time", "5ms", "-max-slowdown", "1000%", "-history", hist, "HEAD~1", "HEAD"}
	want := []string{"BenchmarkMix B/op same", "BenchmarkMix allocs/op same"}
	if _, err := exec.LookPath("valgrind"); err == nil {
		args = append([]string{"-measure", "instructions"}, args...)
		want = append([]string{"BenchmarkMix instructions/op same"}, want...)
	}
	code, stdout, stderr, rep := compareRun(t, context.Background(), repo, args...)
	if code != 0 || rep == nil || len(rep.Benchmarks) != 1 {
		t.Fatalf("exit %d, want 0\n%s%s", code, stdout, stderr)
	}
	if got := verdicts(rep); !slices.Equal(got[len(got)-len(want):], want) {
		t.Errorf("verdicts %q, want %q last", got, want)
	}
	bh := rep.Benchmarks[0].Behaviour
	if bh == nil || !bh.Changed || bh.Entries != 1 || bh.Clusters != 1 || bh.OldClusters != 1 {
		t.Fatalf("behaviour %+v, want changed against OLD's one cluster\n%s", bh, stdout)
	}
	var feats []string
	for _, d := range bh.Diffs {
		feats = append(feats, d.Feature)
	}
	for _, f := range []string{"cpu example.com/beh/mix.f", "cpu example.com/beh/mix.g"} {
		if !slices.Contains(feats, f) {
			t.Errorf("differences %q lack %s", feats, f)
		}
	}
	if !strings.Contains(stdout, "warning: behaviour changed: BenchmarkMix: ") || !strings.Contains(bh.Summary, "mix.f's share of the CPU time") || !strings.Contains(bh.Summary, "mix.g's share of the CPU time") {
		t.Errorf("summary %q\n%s", bh.Summary, stdout)
	}
	past, err := results.ReadBehaviours(hist)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range past {
		if e.Metric == results.BehaviourMetric && len(e.Rounds) == 6 {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d behaviour entries of 6 rounds in the store, want 2 (OLD and NEW)", n)
	}
}
