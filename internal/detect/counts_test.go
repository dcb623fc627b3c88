package detect

import (
	"math"
	"reflect"
	"testing"
)

// TestWithCounts: a benchmark whose d comes from instruction counts
// protects its functions at that d, and may become the best for a
// function another benchmark protected (G: 1 + 0.0005/0.01 = 1.05 by A
// against 1.1 by B); the map it came from is unchanged.
func TestWithCounts(t *testing.T) {
	const m = "example.com/m."
	ids, benches := rowsFixture()
	wall := &Map{Benchmarks: benches, Functions: Rows(ids, benches)}
	counted := wall.WithCounts(map[string]float64{m + "BenchmarkA": 1.0005})
	factor := map[string]float64{}
	by := map[string]string{}
	for _, r := range counted.Functions {
		if r.Factor != nil {
			factor[r.Function], by[r.Function] = *r.Factor, r.Benchmark
		}
	}
	for fn, want := range map[string]float64{"F": 1.001, "G": 1.05, "Tiny": 1 + 0.0005/0.036993} {
		if math.Abs(factor[fn]-want) > 1e-4 || by[fn] != m+"BenchmarkA" {
			t.Errorf("%s: factor %v by %s, want %v by BenchmarkA", fn, factor[fn], by[fn], want)
		}
	}
	if len(counted.Functions) != 5 || counted.Functions[0].Status != Never || counted.Functions[1].Status != SetUp {
		t.Errorf("rows = %+v, want Unused never and Prep set-up only first", counted.Functions)
	}
	if got := counted.Counted(); !reflect.DeepEqual(got, []string{m + "BenchmarkA"}) {
		t.Errorf("Counted = %v, want [BenchmarkA]", got)
	}
	if wall.Benchmarks[0].Detectable != 1.1 || wall.Benchmarks[0].Counted || *wall.Functions[4].Factor != 1.1 || wall.Counted() != nil {
		t.Errorf("WithCounts changed the map it came from: %+v", wall.Benchmarks[0])
	}
}
