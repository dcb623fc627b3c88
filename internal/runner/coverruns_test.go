package runner

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
)

// TestCoverRepeatFails: testdata/coverfail's benchmark passes its first
// two coverage runs and fails the third, the first repeat. Its coverage is
// kept from the runs that succeeded, with a warning saying so, not
// dropped (a benchmark left out of judging).
func TestCoverRepeatFails(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a module's benchmarks")
	}
	mod, pkgs := testModule(t, "coverfail")
	const pkg = "example.com/coverfail/sum"
	c := newTestCampaign(t, mod, pkgs, nil, filepath.Join(t.TempDir(), "out"))
	r := coverRun(t, c, pkg)
	covs, err := r.CoverBenchmarks(context.Background(), r.base.hasTests, pkgs, []string{pkg})
	if err != nil {
		t.Fatal(err)
	}
	if len(covs) != 1 || covs[0].Bench.Name != "BenchmarkSum" || len(covs[0].Blocks[pkg+"/sum.go"]) == 0 {
		t.Fatalf("coverage: %d benchmarks (%+v), want BenchmarkSum's, running sum.go", len(covs), covs)
	}
	want := "baseline benchmark BenchmarkSum of " + pkg + " fails in a repeated coverage run; its coverage is from the 2 runs that succeeded"
	if !slices.Contains(r.Warnings, want) {
		t.Errorf("warnings %q, want %q", r.Warnings, want)
	}
}

// coverRun is a run of c ready for coverBenchmarks of package pkg, which
// has tests.
func coverRun(t *testing.T, c *Campaign, pkg string) *run {
	t.Helper()
	r := newRun(c)
	r.Tmp, r.Prog, r.base.hasTests = t.TempDir(), engine.NewProgress(io.Discard, false, 0), map[string]bool{pkg: true}
	if err := os.MkdirAll(filepath.Join(r.Tmp, "cover"), 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}
