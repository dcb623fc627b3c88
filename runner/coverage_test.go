package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/report"
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
	// Samples of about DefaultSampleTime, as perfmut run takes them.
	c.Levels, c.Benchtime, c.Settings.Benchtime, c.SampleTime = []string{report.Opt}, "", "", DefaultSampleTime
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r := resultsAt(rep, report.Opt)["evict-spin"]; r.Status != score.Killed {
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
	c.Levels = []string{report.Opt} // Benchtime 200x
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r := resultsAt(rep, report.Opt)["evict-spin"]; r.Status != score.NoCoverage {
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

// TestResizeCoverIters: a benchmark whose first iteration takes F and the
// others 20 ns (testdata/cold's, slowed by a loaded machine) gets
// coverage runs long enough to evict (past 4,096 iterations) after at most
// maxCoverResizes steps of resizeCoverIters, as coverBenchmarks takes
// them; one step stopped at 625 iterations for F = 2 ms.
func TestResizeCoverIters(t *testing.T) {
	const steady = 20e-9
	for _, first := range []float64{0.5e-3, 2e-3, 5e-3, 10e-3} {
		iters := coverIters(first + steady) // the listing's one iteration
		steps := 0
		for ; steps < maxCoverResizes; steps++ {
			next, ok := resizeCoverIters(iters, first/float64(iters)+steady)
			if !ok {
				break
			}
			iters = next
		}
		if iters < 10000 {
			t.Errorf("first iteration %gs: coverage runs of %d iterations after %d steps, want at least 10000", first, iters, steps)
		}
	}
	if n, ok := resizeCoverIters(1000, 1e-6); !ok || n != 50000 {
		t.Errorf("resizeCoverIters(1000, 1us) = %d, %v; want 50000, true (50ms / 1us > 2 x 1000)", n, ok)
	}
	if _, ok := resizeCoverIters(30000, 1e-6); ok {
		t.Errorf("resizeCoverIters(30000, 1us) grows; want not (50000 < 2 x 30000)")
	}
	if _, ok := resizeCoverIters(100, 0); ok {
		t.Errorf("resizeCoverIters(100, 0) grows; want not (no time per iteration)")
	}
}
