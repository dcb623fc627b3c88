package runner

import (
	"math"
	"reflect"
	"testing"

	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestCountedDetectable: a family's d is from its sub-benchmarks' counts
// summed round by round (the rounds all of them have), floored at the
// counts' minimum effect; constant counts give the minimum effect; a
// family with one round counted keeps wall time's d.
func TestCountedDetectable(t *testing.T) {
	o := detect.Options{Budget: 30, Alpha: 0.05, Test: score.KS}
	counts := map[engine.Benchmark][]float64{
		{Pkg: "example.com/m", Name: "BenchmarkA/n=1"}:  {100, 200, 50, 100},
		{Pkg: "example.com/m", Name: "BenchmarkA/n=10"}: {1000, 1000, 1010},
		{Pkg: "example.com/m", Name: "BenchmarkFlat"}:   {5000, 5000, 5000},
		{Pkg: "example.com/m", Name: "BenchmarkOne"}:    {42},
	}
	got := countedDetectable(counts, o, 1.005)
	wantA := score.MinDetectable([]float64{1100, 1200, 1060}, 30, 0.05, score.KS)
	if wantA <= 1.005 {
		t.Fatalf("the fixture's spread is below the minimum effect: %v", wantA)
	}
	want := map[string]float64{"example.com/m.BenchmarkA": wantA, "example.com/m.BenchmarkFlat": 1.005}
	if len(got) != len(want) {
		t.Fatalf("countedDetectable = %v, want %v", got, want)
	}
	for name, d := range want {
		if math.Abs(got[name]-d) > 1e-12 {
			t.Errorf("%s: d = %v, want %v", name, got[name], d)
		}
	}
}

// fakeCounts is an engine's cache of baseline counts by level.
type fakeCounts map[string]map[engine.Benchmark][]float64

func (f fakeCounts) BaselineCounts(level string) map[engine.Benchmark][]float64 { return f[level] }

// TestMapCounts: a campaign counting instructions takes the map's d of
// its counted benchmarks from the optimized level's counts and says
// which; the others keep wall time's; one that does not count, or counted
// nothing, keeps the map as computed.
func TestMapCounts(t *testing.T) {
	const p = "example.com/m."
	grows := map[string]bool{p + "F": true}
	m := &detect.Map{Benchmarks: []detect.BenchResult{
		{Name: p + "BenchmarkA", Detectable: 1.2, Shares: detect.Shares{Total: 100, Funcs: map[string]detect.Count{p + "F": {Flat: 50, Cum: 50}}}, Grows: grows, Ran: grows},
		{Name: p + "BenchmarkB", Detectable: 1.1, Shares: detect.Shares{Total: 100, Funcs: map[string]detect.Count{p + "F": {Flat: 40, Cum: 40}}}, Grows: grows, Ran: grows},
	}}
	m.Functions = detect.Rows([]detect.FuncID{{Package: "example.com/m", Name: "F"}}, m.Benchmarks)
	counts := fakeCounts{
		results.NoOpt: {{Pkg: "example.com/m", Name: "BenchmarkB"}: {7, 7, 7}},
		results.Opt:   {{Pkg: "example.com/m", Name: "BenchmarkA"}: {5, 5, 5}},
	}
	c := &Campaign{Levels: []string{results.NoOpt, results.Opt}}
	c.Rule = score.Rule{MaxSamples: 30, Alpha: 0.05, Test: score.KS}
	if got := c.mapCounts(m, counts); got != m {
		t.Errorf("a campaign measuring time changed the map")
	}
	c.Counting = &engine.Counting{MinEffect: 1.005}
	got := c.mapCounts(m, counts)
	if f := got.Functions[0]; f.Benchmark != p+"BenchmarkA" || math.Abs(*f.Factor-1.01) > 1e-12 {
		t.Errorf("F = %s x%v, want BenchmarkA x1.01 (d 1.005 from counts, share 0.5)", f.Benchmark, *f.Factor)
	}
	if !reflect.DeepEqual(mapInfo(got, false).Counted, []string{p + "BenchmarkA"}) || got.Benchmarks[1].Detectable != 1.1 {
		t.Errorf("counted %v, B's d %v: want A counted, B at wall time's 1.1", mapInfo(got, false).Counted, got.Benchmarks[1].Detectable)
	}
	if math.Abs(*m.Functions[0].Factor-1.25) > 1e-12 || m.Functions[0].Benchmark != p+"BenchmarkB" {
		t.Errorf("the computed map changed: F = %s x%v", m.Functions[0].Benchmark, *m.Functions[0].Factor)
	}
	if got := c.mapCounts(m, fakeCounts{}); got != m {
		t.Errorf("a campaign that counted nothing changed the map")
	}
}
