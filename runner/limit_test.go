package runner

import (
	"reflect"
	"testing"
)

func TestLimitSelection(t *testing.T) {
	b := func(name string) Benchmark { return Benchmark{Pkg: "m/p", Name: name} }
	sel := selection{
		benches: []Benchmark{b("BenchmarkA"), b("BenchmarkB"), b("BenchmarkC"), b("BenchmarkD"), b("BenchmarkE")},
		heat: []benchHeat{
			{perIter: 1, count: 900},  // A
			{perIter: 3, count: 10},   // B: hottest per iteration
			{perIter: 1, count: 50},   // C
			{perIter: 1, count: 900},  // D: ties A, loses by name
			{perIter: 0, count: 5000}, // E: no per-iteration figure
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
		for _, x := range got.benches {
			names = append(names, x.Name)
		}
		if !reflect.DeepEqual(names, tc.want) || got.note != tc.note {
			t.Errorf("n=%d: got %v, note %q; want %v, note %q", tc.n, names, got.note, tc.want, tc.note)
		}
		if len(got.heat) != len(got.benches) {
			t.Errorf("n=%d: %d heats for %d benchmarks", tc.n, len(got.heat), len(got.benches))
		}
	}
}

// TestLimitSelectionPerSecond: a benchmark that runs the site 100 times
// in an iteration of 100 us ranks below one that runs it once in 20 ns:
// per second of their timed loops, 1e6 against 5e7.
func TestLimitSelectionPerSecond(t *testing.T) {
	sel := selection{
		benches: []Benchmark{{Pkg: "m/p", Name: "BenchmarkHeavy"}, {Pkg: "m/p", Name: "BenchmarkLight"}, {Pkg: "m/p", Name: "BenchmarkUntimed"}},
		heat:    []benchHeat{{perIter: 100, perSec: 1e6, count: 1e4}, {perIter: 1, perSec: 5e7, count: 1e6}, {perIter: 1000, count: 1e3}},
	}
	got := limitSelection(sel, 2)
	if len(got.benches) != 2 || got.benches[0].Name != "BenchmarkHeavy" || got.benches[1].Name != "BenchmarkLight" {
		t.Errorf("kept %v, want [BenchmarkHeavy BenchmarkLight] (BenchmarkUntimed, of unknown time per iteration, after them)", got.benches)
	}
	if got := limitSelection(sel, 1); len(got.benches) != 1 || got.benches[0].Name != "BenchmarkLight" {
		t.Errorf("kept %v, want [BenchmarkLight]", got.benches)
	}
}

// TestSelectBenchmarksHeat checks the heat limitSelection ranks by:
// (c3-c2)/iters of the site's blocks in the timed loop, that over the
// coverage run's time per iteration, and the larger count.
func TestSelectBenchmarksHeat(t *testing.T) {
	cov := func(name string, iters int, bs ...CovBlock) *BenchCoverage {
		return &BenchCoverage{Bench: Benchmark{Pkg: "m/p", Name: name}, iters: iters, Blocks: map[string][]CovBlock{"m/p/a.go": bs}}
	}
	covs := []*BenchCoverage{
		cov("BenchmarkLoop", 10, CovBlock{StartLine: 3, StartCol: 1, EndLine: 5, EndCol: 2, CountN: 41, Count2N: 81}),
		cov("BenchmarkSetup", 10, CovBlock{StartLine: 3, StartCol: 1, EndLine: 5, EndCol: 2, CountN: 7, Count2N: 7}),
		cov("BenchmarkMiss", 10, CovBlock{StartLine: 9, StartCol: 1, EndLine: 9, EndCol: 9, CountN: 1, Count2N: 2}),
	}
	covs[0].secPerOp = 2e-6
	sel := selectBenchmarks(covs, map[string]bool{"m/p": true}, "m/p/a.go", [][2]int{{4, 1}})
	if len(sel.benches) != 1 || sel.benches[0].Name != "BenchmarkLoop" {
		t.Fatalf("benches = %v, want [BenchmarkLoop]", sel.benches)
	}
	if want := []benchHeat{{perIter: 4, perSec: 2e6, count: 81}}; !reflect.DeepEqual(sel.heat, want) {
		t.Errorf("heat = %+v, want %+v", sel.heat, want)
	}
}

// TestSelectBenchmarksWrapped: a hot block whose 32-bit coverage counter
// wrapped between the N and 2N runs (gammazero/deque's Insert: 3749975000
// at 100000x, 2115048112 at 200000x) is in the timed loop, with its true
// growth per iteration, never "setup".
func TestSelectBenchmarksWrapped(t *testing.T) {
	covs := []*BenchCoverage{{Bench: Benchmark{Pkg: "m/p", Name: "BenchmarkInsert"}, iters: 100000,
		Blocks: map[string][]CovBlock{"m/p/a.go": {{StartLine: 3, StartCol: 1, EndLine: 5, EndCol: 2, CountN: 3749975000, Count2N: 2115048112}}}}}
	sel := selectBenchmarks(covs, map[string]bool{"m/p": true}, "m/p/a.go", [][2]int{{4, 1}})
	if len(sel.benches) != 1 {
		t.Fatalf("selection %+v, want BenchmarkInsert in its timed loop", sel)
	}
	if want := float64(2115048112+1<<32-3749975000) / 100000; sel.heat[0].perIter != want {
		t.Errorf("per iteration %v, want %v", sel.heat[0].perIter, want)
	}
}
