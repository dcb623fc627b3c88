package runner

import (
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestSitePrediction: a loop site whose smallest injected cost (+7µs per
// iteration) is killed says how small a cost its benchmarks' noise lets
// them notice: BenchmarkGet (30 ns/op, detects 6%, runs the loop once per
// op) +1.8ns; BenchmarkScan (2 µs/op, detects 2%, 10 runs per op) +4ns;
// BenchmarkSetup does not run it in its timed loop. A site with a
// survivor below the kill keeps its bracket and adds the prediction; a
// site no noise is known of keeps the measured text alone.
func TestSitePrediction(t *testing.T) {
	loop := &mutate.Operator{Name: "spin-loop", LoopCost: func(p map[string]any, opt bool) (float64, bool) {
		return p["ns"].(float64), true
	}}
	mut := func(id string, line int, ns float64, status score.Status) results.Mutant {
		return results.Mutant{
			Mutant:  mutate.Mutant{ID: id, Operator: "spin-loop", File: "cache/lru.go", Line: line, Column: 2, Function: "(*LRU).Get", Op: loop, Params: map[string]any{"ns": ns}},
			Results: map[string]*results.LevelResult{"opt": {Status: status}},
		}
	}
	ms := []results.Mutant{
		mut("a", 10, 7000, score.Killed), mut("b", 10, 70000, score.Killed),
		mut("c", 20, 700, score.Survived), mut("d", 20, 7000, score.Killed),
	}
	f := func(x float64) *float64 { return &x }
	noise := &results.Noise{Benchmarks: []results.BenchNoise{
		{Name: "BenchmarkGet", Level: "opt", Metric: "sec/op", Median: 30e-9, Detectable: f(1.06)},
		{Name: "BenchmarkScan", Level: "opt", Metric: "sec/op", Median: 2e-6, Detectable: f(1.02)},
		{Name: "BenchmarkSetup", Level: "opt", Metric: "sec/op", Median: 1e-9, Detectable: f(1.5)},
		{Name: "BenchmarkGet", Level: "noopt", Metric: "sec/op", Median: 1e-9, Detectable: f(1.01)},
	}}
	heat := func(m results.Mutant) map[engine.Benchmark]engine.BenchHeat {
		return map[engine.Benchmark]engine.BenchHeat{
			{Pkg: "p", Name: "BenchmarkGet"}:   {PerIter: 1},
			{Pkg: "p", Name: "BenchmarkScan"}:  {PerIter: 10},
			{Pkg: "p", Name: "BenchmarkSetup"}: {PerIter: 0},
		}
	}
	got := sensitivitiesPredicted(ms, sitePredictor(ms, noise, heat))
	want := []string{
		"benchmarks notice +7µs per iteration here, the smallest cost injected; BenchmarkGet's noise says it would notice about +1.8ns",
		"benchmarks notice +7µs per iteration here, not +700ns; BenchmarkGet's noise says it would notice about +1.8ns",
	}
	if len(got) != len(want) {
		t.Fatalf("%d sites, want %d: %+v", len(got), len(want), got)
	}
	for i, s := range got {
		if s.Text != want[i] || s.PredictedBy != "BenchmarkGet" || s.PredictedNanos < 1.8-1e-9 || s.PredictedNanos > 1.8+1e-9 {
			t.Errorf("site %s:%d: %q, predicted %g by %q; want %q, 1.8 by BenchmarkGet", s.File, s.Line, s.Text, s.PredictedNanos, s.PredictedBy, want[i])
		}
	}
	if got := sensitivitiesPredicted(ms, sitePredictor(ms, nil, heat)); got[0].Text != "benchmarks notice +7µs per iteration here" || got[0].PredictedNanos != 0 {
		t.Errorf("without noise: %q, predicted %g; want the measured text alone", got[0].Text, got[0].PredictedNanos)
	}
}
