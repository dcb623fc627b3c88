package detect

import (
	"math"
	"testing"
)

func TestFactor(t *testing.T) {
	for _, tt := range []struct{ d, s, want float64 }{
		{1.05, 0.5, 1.1}, // half the time: twice the benchmark's ratio
		{1.05, 0.01, 6},  // 1%: 1 + 0.05/0.01
		{1.05, 1, 1.05},  // all of it: the benchmark's own ratio
		{1, 0.3, 1},      // a constant baseline notices any slowdown
		{1.05, 0, math.Inf(1)},
	} {
		if got := factor(tt.d, tt.s); math.Abs(got-tt.want) > 1e-12 && !(math.IsInf(got, 1) && math.IsInf(tt.want, 1)) {
			t.Errorf("Factor(%v, %v) = %v, want %v", tt.d, tt.s, got, tt.want)
		}
	}
}

// rowsFixture is a map's input: BenchmarkA, noisy, where F takes half
// the time and G 1 %; BenchmarkB, quieter, where G takes 20 %; Tiny runs
// in A's loop without a sample, Prep before it, Unused nowhere.
func rowsFixture() ([]FuncID, []BenchResult) {
	const m = "example.com/m."
	set := func(names ...string) map[string]bool {
		out := map[string]bool{}
		for _, n := range names {
			out[m+n] = true
		}
		return out
	}
	benches := []BenchResult{
		{Name: m + "BenchmarkA", Detectable: 1.1, Shares: Shares{Total: 100, Funcs: map[string]Count{
			m + "F": {Flat: 50, Cum: 50}, m + "G": {Flat: 1, Cum: 1}}},
			Ran: set("F", "G", "Tiny", "Prep"), Grows: set("F", "G", "Tiny")},
		// B protects G better: a quieter benchmark where G takes 20%.
		{Name: m + "BenchmarkB", Detectable: 1.02, Shares: Shares{Total: 200, Funcs: map[string]Count{
			m + "G": {Flat: 40, Cum: 40}}},
			Ran: set("G", "Prep"), Grows: set("G")},
	}
	var ids []FuncID
	for _, n := range []string{"F", "G", "Tiny", "Prep", "Unused"} {
		ids = append(ids, FuncID{"example.com/m", n})
	}
	return ids, benches
}

func TestRows(t *testing.T) {
	const m = "example.com/m."
	ids, benches := rowsFixture()
	rows := Rows(ids, benches)
	type want struct {
		fn      string
		status  Status
		factor  float64 // 0 = null
		bench   string
		atLeast bool
	}
	wants := []want{
		{m + "Unused", Never, 0, "", false},
		{m + "Prep", SetUp, 0, "", false},
		// No sample in 100: the bound from the share's upper limit 0.036993.
		{m + "Tiny", Timed, 1 + 0.1/0.036993, m + "BenchmarkA", true},
		{m + "F", Timed, 1.2, m + "BenchmarkA", false},
		{m + "G", Timed, 1.1, m + "BenchmarkB", false},
	}
	if len(rows) != len(wants) {
		t.Fatalf("%d rows, want %d", len(rows), len(wants))
	}
	for i, w := range wants {
		r := rows[i]
		if m+r.Function != w.fn || r.Package != "example.com/m" || r.Status != w.status || r.Benchmark != w.bench || r.AtLeast != w.atLeast {
			t.Errorf("row %d = %s %s %s at least %v, want %s %s %s %v", i, r.Function, r.Status, r.Benchmark, r.AtLeast, w.fn, w.status, w.bench, w.atLeast)
		}
		if (r.Factor == nil) != (w.factor == 0) || r.Factor != nil && math.Abs(*r.Factor-w.factor) > 1e-4 {
			t.Errorf("%s: factor %v, want %v", w.fn, r.Factor, w.factor)
		}
	}
	// F: 50 of 100, share interval [0.403832, 0.596168] -> factor
	// [1 + 0.1/0.596168, 1 + 0.1/0.403832].
	f := rows[3]
	if math.Abs(f.FactorLow-(1+0.1/0.596168)) > 1e-5 || math.Abs(f.FactorHigh-(1+0.1/0.403832)) > 1e-5 || f.FlatShare != 0.5 {
		t.Errorf("F: factor interval [%v, %v], flat %v", f.FactorLow, f.FactorHigh, f.FlatShare)
	}
}
