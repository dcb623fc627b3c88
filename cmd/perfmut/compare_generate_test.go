package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/testutil"
	"github.com/perfmut/perfmut/score"
)

// TestCompareGenerate is SpeedGun's evaluation shape on
// testdata/speedgun/history.txtar, a module without benchmarks: Check
// takes the write lock across a 50µs probe instead of the read lock
// before it (a coarser lock, which serializes the goroutines' probes:
// about 8x, from sleeps, whatever the machine's load), and the generated
// concurrent benchmark focused on Check is slower and fails the gate;
// identical revisions generate nothing. The repository is untouched and
// no temporary file is left.
func TestCompareGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("generates, builds and measures versions of a module")
	}
	t.Setenv("TMPDIR", t.TempDir())
	repo := testutil.History(t, filepath.Join("..", "..", "testdata", "speedgun", "history.txtar"))
	before := testutil.HashTree(t, repo)
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "out")

	code, stdout, stderr, rep := compareOut(t, ctx, repo, out, "-generate", "HEAD~2", "HEAD~1")
	if code != exitThreshold || rep == nil || rep.Generated == nil || len(rep.Generated.Benchmarks) != 1 {
		t.Fatalf("coarser lock: exit %d, want 3 with one generated benchmark\n%s%s", code, stdout, stderr)
	}
	g := rep.Generated.Benchmarks[0]
	if g.Name != "BenchmarkConcurrentRegistry" || g.Type != "*Registry" || !slices.Equal(g.Focus, []string{"(*Registry).Check"}) || !slices.Contains(g.Covers, "(*Registry).Check") {
		t.Errorf("generated %+v, want BenchmarkConcurrentRegistry of *Registry focused on (*Registry).Check", g)
	}
	if rep.Generated.Builds != 1 {
		t.Errorf("generation builds %d, want 1", rep.Generated.Builds)
	}
	if len(rep.Benchmarks) != 1 || rep.Benchmarks[0].Name != g.Name || rep.Benchmarks[0].Metrics[0].Metric != "sec/op" || rep.Benchmarks[0].Metrics[0].Verdict != score.Slower {
		t.Errorf("verdicts %q, want %s sec/op slower\n%s", verdicts(rep), g.Name, stdout)
	}
	src, err := os.ReadFile(filepath.Join(out, g.File))
	if err != nil || !strings.Contains(string(src), "func BenchmarkConcurrentRegistry(b *testing.B) {") || !strings.Contains(string(src), "b.RunParallel(") {
		t.Errorf("the generated file %s: %v\n%s", g.File, err, src)
	}
	for _, want := range []string{"generated (-generate): 1 concurrent benchmark of the changed thread-safe types", "changed: (*Registry).Check; keep it: copy " + g.File} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}

	code, stdout, stderr, rep = compareRun(t, ctx, repo, "-generate", "HEAD~1", "HEAD~1")
	if code != 0 || rep == nil || rep.Generated == nil || len(rep.Generated.Benchmarks) != 0 || len(rep.Benchmarks) != 0 {
		t.Errorf("identical revisions: exit %d, want 0 and nothing generated or compared\n%s%s", code, stdout, stderr)
	}
	if after := testutil.HashTree(t, repo); after != before {
		t.Errorf("the repository changed")
	}
	if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
