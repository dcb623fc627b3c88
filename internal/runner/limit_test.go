package runner

import (
	"reflect"
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
)

func TestLimitSelection(t *testing.T) {
	b := func(name string) engine.Benchmark { return engine.Benchmark{Pkg: "m/p", Name: name} }
	sel := engine.Selection{
		Benches: []engine.Benchmark{b("BenchmarkA"), b("BenchmarkB"), b("BenchmarkC"), b("BenchmarkD"), b("BenchmarkE")},
		Heat: []engine.BenchHeat{
			{PerIter: 1, Count: 900},  // A
			{PerIter: 3, Count: 10},   // B: hottest per iteration
			{PerIter: 1, Count: 50},   // C
			{PerIter: 1, Count: 900},  // D: ties A, loses by name
			{PerIter: 0, Count: 5000}, // E: no per-iteration figure
		},
	}
	for _, tc := range []struct {
		n    int
		want []string
		note string
	}{
		{0, []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE"}, ""},
		{5, []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE"}, ""},
		{1, []string{"BenchmarkB"}, "measured on 1 of 5 benchmarks that reach it (the hottest); -max-benchmarks 0 for all; left out: BenchmarkA, BenchmarkC, BenchmarkD, BenchmarkE"},
		{2, []string{"BenchmarkA", "BenchmarkB"}, "measured on 2 of 5 benchmarks that reach it (the hottest); -max-benchmarks 0 for all; left out: BenchmarkC, BenchmarkD, BenchmarkE"},
		{3, []string{"BenchmarkA", "BenchmarkB", "BenchmarkD"}, "measured on 3 of 5 benchmarks that reach it (the hottest); -max-benchmarks 0 for all; left out: BenchmarkC, BenchmarkE"},
		{4, []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD"}, "measured on 4 of 5 benchmarks that reach it (the hottest); -max-benchmarks 0 for all; left out: BenchmarkE"},
	} {
		got := limitSelection(sel, tc.n)
		var names []string
		for _, x := range got.Benches {
			names = append(names, x.Name)
		}
		if !reflect.DeepEqual(names, tc.want) || got.Note != tc.note {
			t.Errorf("n=%d: got %v, note %q; want %v, note %q", tc.n, names, got.Note, tc.want, tc.note)
		}
		if len(got.Heat) != len(got.Benches) {
			t.Errorf("n=%d: %d heats for %d benchmarks", tc.n, len(got.Heat), len(got.Benches))
		}
	}
}

// TestLimitSelectionPerSecond: a benchmark that runs the site 100 times
// in an iteration of 100 us ranks below one that runs it once in 20 ns:
// per second of their timed loops, 1e6 against 5e7.
func TestLimitSelectionPerSecond(t *testing.T) {
	sel := engine.Selection{
		Benches: []engine.Benchmark{{Pkg: "m/p", Name: "BenchmarkHeavy"}, {Pkg: "m/p", Name: "BenchmarkLight"}, {Pkg: "m/p", Name: "BenchmarkUntimed"}},
		Heat:    []engine.BenchHeat{{PerIter: 100, PerSec: 1e6, Count: 1e4}, {PerIter: 1, PerSec: 5e7, Count: 1e6}, {PerIter: 1000, Count: 1e3}},
	}
	got := limitSelection(sel, 2)
	if len(got.Benches) != 2 || got.Benches[0].Name != "BenchmarkHeavy" || got.Benches[1].Name != "BenchmarkLight" {
		t.Errorf("kept %v, want [BenchmarkHeavy BenchmarkLight] (BenchmarkUntimed, of unknown time per iteration, after them)", got.Benches)
	}
	if got := limitSelection(sel, 1); len(got.Benches) != 1 || got.Benches[0].Name != "BenchmarkLight" {
		t.Errorf("kept %v, want [BenchmarkLight]", got.Benches)
	}
}

// TestSelectBenchmarksHeat checks the heat limitSelection ranks by:
// (c3-c2)/iters of the site's blocks in the timed loop, that over the
// coverage run's time per iteration, and the larger count.
func TestSelectBenchmarksHeat(t *testing.T) {
	cov := func(name string, iters int, bs ...engine.CovBlock) *engine.BenchCoverage {
		return &engine.BenchCoverage{Bench: engine.Benchmark{Pkg: "m/p", Name: name}, Iters: iters, Blocks: map[string][]engine.CovBlock{"m/p/a.go": bs}}
	}
	covs := []*engine.BenchCoverage{
		cov("BenchmarkLoop", 10, engine.CovBlock{StartLine: 3, StartCol: 1, EndLine: 5, EndCol: 2, CountN: 41, Count2N: 81}),
		cov("BenchmarkSetup", 10, engine.CovBlock{StartLine: 3, StartCol: 1, EndLine: 5, EndCol: 2, CountN: 7, Count2N: 7}),
		cov("BenchmarkMiss", 10, engine.CovBlock{StartLine: 9, StartCol: 1, EndLine: 9, EndCol: 9, CountN: 1, Count2N: 2}),
	}
	covs[0].SecPerOp = 2e-6
	sel := engine.SelectBenchmarks(covs, map[string]bool{"m/p": true}, "m/p/a.go", [][2]int{{4, 1}})
	if len(sel.Benches) != 1 || sel.Benches[0].Name != "BenchmarkLoop" {
		t.Fatalf("benches = %v, want [BenchmarkLoop]", sel.Benches)
	}
	if want := []engine.BenchHeat{{PerIter: 4, PerSec: 2e6, Count: 81}}; !reflect.DeepEqual(sel.Heat, want) {
		t.Errorf("heat = %+v, want %+v", sel.Heat, want)
	}
}

// TestSelectBenchmarksWrapped: a hot block whose 32-bit coverage counter
// wrapped between the N and 2N runs (gammazero/deque's Insert: 3749975000
// at 100000x, 2115048112 at 200000x) is in the timed loop, with its true
// growth per iteration, never "setup".
func TestSelectBenchmarksWrapped(t *testing.T) {
	covs := []*engine.BenchCoverage{{Bench: engine.Benchmark{Pkg: "m/p", Name: "BenchmarkInsert"}, Iters: 100000,
		Blocks: map[string][]engine.CovBlock{"m/p/a.go": {{StartLine: 3, StartCol: 1, EndLine: 5, EndCol: 2, CountN: 3749975000, Count2N: 2115048112}}}}}
	sel := engine.SelectBenchmarks(covs, map[string]bool{"m/p": true}, "m/p/a.go", [][2]int{{4, 1}})
	if len(sel.Benches) != 1 {
		t.Fatalf("selection %+v, want BenchmarkInsert in its timed loop", sel)
	}
	if want := float64(2115048112+1<<32-3749975000) / 100000; sel.Heat[0].PerIter != want {
		t.Errorf("per iteration %v, want %v", sel.Heat[0].PerIter, want)
	}
}
