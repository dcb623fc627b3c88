package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestCoverColdFirstIteration: a benchmark whose first iteration builds a
// table (testdata/cold: 0.5 ms, then 20 ns an iteration) evicts only after
// 4096 iterations. The coverage runs must see the eviction as a sample
// does (a million iterations), not stop at the ~100 iterations that the
// first iteration's time suggests: the mutant there is measured.
func TestCoverColdFirstIteration(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module")
	}
	c := coldCampaign(t)
	// Samples of about DefaultSampleTime, as perfmut run takes them, and
	// censored as perfmut run's are: a mutant sample of the million
	// iterations would spin 20,000 times at each of about a million
	// evictions (tens of seconds, past the sample's deadline on a
	// loaded machine) and is stopped at 3 times the baseline's instead.
	c.Levels, c.Benchtime, c.Settings.Benchtime, c.SampleTime = []string{results.Opt}, "", "", engine.DefaultSampleTime
	c.CensorFactor = 3
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r := resultsAt(rep, results.Opt)["evict-spin"]; r.Status != score.Killed {
		t.Errorf("evict-spin: %s (%s), want killed by BenchmarkAdd", r.Status, r.Reason)
	}
}

// TestCoverFixedIterations: with -benchtime Nx every sample runs N
// iterations, and so do the coverage runs (N and 2N): testdata/cold's
// eviction, reached only past 4096 iterations, is never run by samples of
// 200, so its mutant is no-coverage, not a survivor no sample could see.
func TestCoverFixedIterations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	c := coldCampaign(t)
	c.Levels = []string{results.Opt} // Benchtime 200x
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r := resultsAt(rep, results.Opt)["evict-spin"]; r.Status != score.NoCoverage {
		t.Errorf("evict-spin: %s (%s), want no-coverage: samples of 200 iterations never evict", r.Status, r.Reason)
	}
}

// coldCampaign is a campaign on testdata/cold with one mutant, evict-spin:
// a spin in the eviction that only runs past 4096 iterations, about 500
// times the cost of an Add once it does (far beyond a loaded machine's
// noise).
func coldCampaign(t *testing.T) *Campaign {
	t.Helper()
	mod, pkgs := testModule(t, "cold")
	m := mkMutant(t, mod, "evict-spin", "example.com/cold/set", "set/set.go", "func (s *Set) evict(", "s.keys = s.keys[1:]",
		"s.keys = s.keys[1:]\n\tfor perfmut_i := 0; perfmut_i < 20000; perfmut_i++ {\n\t\tperfmut_sink += perfmut_i\n\t}")
	m.Helper = "package set\n\nvar perfmut_sink int\n"
	return newTestCampaign(t, mod, pkgs, []mutate.Mutant{m}, filepath.Join(t.TempDir(), "out"))
}

// TestCoverRandomSetup: testdata/randsetup's BenchmarkIndex/a and /b look
// for keys at positions random per process, so how often Index's loop
// body runs differs between processes (a pair of runs at N and 2N once
// read as a decrease, a wrapped counter and a hot benchmark); /fixed runs
// it 11 times an iteration in every process. Three coverage passes
// choose the same benchmarks for the loop body, in the same order: all
// three, with /fixed ranked first (a known heat of 11 per iteration) and
// the other two after it by name (a rate that differs between processes
// ranks nothing).
func TestCoverRandomSetup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a module's benchmarks")
	}
	mod, pkgs := testModule(t, "randsetup")
	const pkg, file = "example.com/randsetup/pick", "pick/pick.go"
	m := mkMutant(t, mod, "body", pkg, file, "func Index(", "v == x", "v == x")
	src, err := os.ReadFile(filepath.Join(mod.Dir, file))
	if err != nil {
		t.Fatal(err)
	}
	pos := engine.MutantPositions(src, m)
	c := newTestCampaign(t, mod, pkgs, nil, filepath.Join(t.TempDir(), "out"))
	c.BenchTimeout = 2 * time.Minute
	var got []string
	for pass := range 3 {
		r := coverRun(t, c, pkg)
		covs, err := r.CoverBenchmarks(context.Background(), r.base.hasTests, pkgs, []string{pkg})
		if err != nil {
			t.Fatal(err)
		}
		sel := engine.SelectBenchmarks(covs, map[string]bool{pkg: true}, engine.CoverFile(m), pos)
		top := limitSelection(sel, 1)
		got = append(got, fmt.Sprintf("pass %d: %v (%s) top %v", pass, sel.Benches, sel.Reason, top.Benches))
	}
	want := "[BenchmarkIndex/a BenchmarkIndex/b BenchmarkIndex/fixed] () top [BenchmarkIndex/fixed]"
	for _, g := range got {
		if _, rest, _ := strings.Cut(g, ": "); rest != want {
			t.Errorf("coverage passes differ or are wrong:\n%s\nwant every pass %s", strings.Join(got, "\n"), want)
			break
		}
	}
}
