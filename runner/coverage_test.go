package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/engine"
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

// TestResizeCoverIters: a benchmark whose first iteration takes F and the
// others 20 ns (testdata/cold's, slowed by a loaded machine) gets
// coverage runs long enough to evict (past 4,096 iterations) after at most
// maxCoverResizes steps of resizeCoverIters, as coverBenchmarks takes
// them; one step stopped at 625 iterations for F = 2 ms.
func TestResizeCoverIters(t *testing.T) {
	const steady = 20e-9
	for _, first := range []float64{0.5e-3, 2e-3, 5e-3, 10e-3} {
		iters := engine.CoverIters(first + steady) // the listing's one iteration
		steps := 0
		for ; steps < engine.MaxCoverResizes; steps++ {
			next, ok := engine.ResizeCoverIters(iters, first/float64(iters)+steady)
			if !ok {
				break
			}
			iters = next
		}
		if iters < 10000 {
			t.Errorf("first iteration %gs: coverage runs of %d iterations after %d steps, want at least 10000", first, iters, steps)
		}
	}
	if n, ok := engine.ResizeCoverIters(1000, 1e-6); !ok || n != 50000 {
		t.Errorf("resizeCoverIters(1000, 1us) = %d, %v; want 50000, true (50ms / 1us > 2 x 1000)", n, ok)
	}
	if _, ok := engine.ResizeCoverIters(30000, 1e-6); ok {
		t.Errorf("resizeCoverIters(30000, 1us) grows; want not (50000 < 2 x 30000)")
	}
	if _, ok := engine.ResizeCoverIters(100, 0); ok {
		t.Errorf("resizeCoverIters(100, 0) grows; want not (no time per iteration)")
	}
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

// TestMergeRuns: runs at the same count that disagree on a block make it
// timed with no known rate (in varies), whatever its medians; a block
// every run counts alike keeps its counts, setup or timed; a pair whose
// 2N run reads far lower than its N run is a decrease between processes,
// not a wrapped counter.
func TestMergeRuns(t *testing.T) {
	const f = "m/p/a.go"
	prof := func(counts ...int64) map[string][]engine.CovBlock {
		var bs []engine.CovBlock
		for i, c := range counts {
			bs = append(bs, engine.CovBlock{StartLine: 10 * (i + 1), StartCol: 1, EndLine: 10*(i+1) + 1, EndCol: 2, CountN: c})
		}
		return map[string][]engine.CovBlock{f: bs}
	}
	// Blocks: setup (7 every run), timed (N, 2N), random (204, 1, 2 at N;
	// 2, 408, 1 at 2N), never run.
	lo := []map[string][]engine.CovBlock{prof(7, 100, 204, 0), prof(7, 100, 1, 0), prof(7, 100, 2, 0)}
	hi := []map[string][]engine.CovBlock{prof(7, 200, 2, 0), prof(7, 200, 408, 0), prof(7, 200, 1, 0)}
	blocks, varies := engine.MergeRuns(lo, hi)
	got := blocks[f]
	if len(got) != 3 {
		t.Fatalf("blocks %v, want the three that ran", got)
	}
	for i, want := range []struct {
		c2, c3, growth int64
		varies         bool
	}{{7, 7, 0, false}, {100, 200, 100, false}, {2, 3, 1, true}} {
		b := got[i]
		if b.CountN != want.c2 || b.Count2N != want.c3 || b.Growth() != want.growth || varies[f][[2]int{b.StartLine, b.StartCol}] != want.varies {
			t.Errorf("block %d: c2 %d c3 %d growth %d varies %v; want %+v", i, b.CountN, b.Count2N, b.Growth(), varies[f][[2]int{b.StartLine, b.StartCol}], want)
		}
	}
	if !engine.SameCounts(lo[0], prof(7, 100, 204, 0)) || engine.SameCounts(lo[0], lo[1]) {
		t.Errorf("sameCounts: want equal profiles alike and the random block to differ")
	}
	if !engine.Decreases(lo[0], hi[0]) || engine.Decreases(lo[1], hi[1]) {
		t.Errorf("decreases: want 204 then 2 a decrease, 1 then 408 not")
	}
	for _, tc := range []struct {
		c2, c3, want int64
	}{
		{204, 2, 0},                          // another process ran it less
		{3749975000, 2115048112, 2660040408}, // a wrapped counter (gammazero/deque)
		{1 << 30, 5, 0},                      // a wrap would be 4x more than at N
		{100, 250, 150},
	} {
		if g := (engine.CovBlock{CountN: tc.c2, Count2N: tc.c3}).Growth(); g != tc.want {
			t.Errorf("growth(%d, %d) = %d, want %d", tc.c2, tc.c3, g, tc.want)
		}
	}
}
