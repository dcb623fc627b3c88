package detect

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/operators"
)

// TestObserveAgree: an injection's cost per loop-body execution becomes
// each benchmark's slowdown from the body block's executions per op and
// the median ns/op; the prediction is a kill when a slowdown reaches its
// benchmark's detectable ratio.
func TestObserveAgree(t *testing.T) {
	const p = "example.com/m"
	file := p + "/f.go"
	f := func(x float64) *float64 { return &x }
	m := &Map{
		Benchmarks: []BenchResult{
			// The loop at f.go:10.2 has its body block at 10.30 (100 per
			// op); 10.1 starts before the loop statement.
			{Name: p + ".BenchmarkA", Detectable: 1.1, Noise: []float64{900, 1000, 5000},
				PerOp: map[string]float64{file + ":10.30": 100, file + ":10.1": 1, file + ":20.9": 2}},
			{Name: p + ".BenchmarkB", Detectable: 1.02, Noise: []float64{1e6, 1e6}, PerOp: map[string]float64{file + ":10.30": 1}},
		},
		Functions: []Row{{Package: p, Function: "Loop", Status: Timed, Factor: f(1.2), Benchmark: p + ".BenchmarkA", Share: 0.5}},
	}
	ob := m.Observe(Injection{ID: "a", Function: p + ".Loop", File: file, Line: 10, Column: 2, Nanos: 2, Verdict: "killed"})
	// A: 1 + 2*100/1000 = 1.2; B: 1 + 2/1e6; the function in A: 1 + 0.2/0.5.
	if math.Abs(ob.Bench[p+".BenchmarkA"]-1.2) > 1e-12 || math.Abs(ob.Bench[p+".BenchmarkB"]-(1+2e-6)) > 1e-12 || len(ob.Bench) != 2 || math.Abs(ob.Factor-1.4) > 1e-12 {
		t.Fatalf("Observe = %+v", ob)
	}
	obs := []Observation{
		ob, // predicted by A (1.2 >= 1.1), killed: agrees
		{ID: "b", Bench: map[string]float64{p + ".BenchmarkA": 1.05, p + ".BenchmarkB": 1.019}, Verdict: "killed"},  // none reaches its d: disagrees
		{ID: "c", Bench: map[string]float64{p + ".BenchmarkA": 1.05, p + ".BenchmarkB": 1.03}, Verdict: "survived"}, // B reaches 1.02: disagrees
		{ID: "d", Bench: map[string]float64{p + ".BenchmarkA": 1.01}, Verdict: "survived"},                          // agrees
		{ID: "e", Bench: map[string]float64{p + ".BenchmarkA": 3}, Verdict: "undecided"},                            // left out
		{ID: "f", Bench: map[string]float64{p + ".BenchmarkGone": 9}, Verdict: "killed"},                            // not in the map: not predicted
		{ID: "g", Bench: map[string]float64{}, Verdict: "survived"},                                                 // set-up only or never: agrees
	}
	a := Agree(m, obs)
	if a.Decided != 6 || a.Agreeing != 3 || a.Other != 1 || math.Abs(a.Rate()-0.5) > 1e-12 {
		t.Errorf("Agree: decided %d agreeing %d other %d rate %v, want 6, 3, 1, 0.5", a.Decided, a.Agreeing, a.Other, a.Rate())
	}
	var ids []string
	for _, o := range a.Disagreements() {
		ids = append(ids, o.ID)
	}
	if len(ids) != 3 || ids[0] != "b" || ids[1] != "c" || ids[2] != "f" {
		t.Errorf("disagreements %v, want b c f", ids)
	}
	if c := a.Outcomes[2]; !c.Predicted || c.By != p+".BenchmarkB" || c.Ratio != 1.03 || c.Detectable != 1.02 {
		t.Errorf("c: %+v, want predicted by BenchmarkB at 1.03 of 1.02", c)
	}
}

// TestSpinCostHelper: the module that measures the spin helper's cost
// holds spin-loop's helper verbatim.
func TestSpinCostHelper(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "spincost", "spin_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), operators.SpinLoop.Helper) {
		t.Error("testdata/spincost/spin_test.go does not hold spin-loop's helper as the operator adds it: copy operators.SpinLoop.Helper into it")
	}
}
