package score

import "testing"

// TestLateCountJoins: an allocs/op that cannot reach the first look's
// level (4 of the mutant's 5 values higher: 6/252) is out of the mutant's
// family, fixed there; when every later mutant value is higher (9 of 10 at
// the second look, all in the mutant: 11/184756 = 0.0000595) it joins as a
// late count with what the sec/op's calibrated levels leave of alpha
// (0.0015, a sixth of it at the second look: 0.000254) and kills. Before,
// out of the family meant out for good, and the mutant went on sampling.
// The sec/op is noise whose per-round ratios leave a 5% slowdown open at
// the first look (no futility stop there).
func TestLateCountJoins(t *testing.T) {
	r := DefaultRule()
	samples := []Sample{
		{Benchmark: "A", Metric: SecPerOp,
			Baseline: []float64{100, 110, 95, 105, 100, 98, 104, 101, 99, 103},
			Mutant:   []float64{108, 97, 103, 96, 107, 100, 99, 104, 102, 98}},
		{Benchmark: "A", Metric: AllocsPerOp,
			Baseline: []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3},
			Mutant:   []float64{3, 4, 4, 4, 4, 4, 4, 4, 4, 4}},
	}
	first := make([]Sample, len(samples))
	for i, s := range samples {
		first[i] = s.prefix(5)
	}
	if v := r.Decide(first); v.Decision != Continue || v.Look != 1 || v.Tests[1].Reject {
		t.Fatalf("first look: %s at look %d, allocs/op %+v; want continue without a rejection", v.Decision, v.Look, v.Tests[1])
	}
	if seq, _, _ := r.sequenceFamily(samples); seq[1] {
		t.Fatalf("allocs/op is in the mutant's family: the case does not test a late count")
	}
	v := r.Decide(samples)
	a := v.Tests[1]
	if v.Decision != Kill || v.Look != 2 || !a.Reject || a.Deterministic || a.Excluded || !close(a.P, 11.0/184756) {
		t.Errorf("second look: %s at look %d, allocs/op %+v; want a kill by the late count (p = 11/184756)", v.Decision, v.Look, a)
	}
	if want := r.countLevel(1, r.split(1, 0)); !close(a.Threshold, want) || !(want > 0.00025 && want < 0.00026) {
		t.Errorf("allocs/op threshold %v, want the late counts' level %v (about 0.000254)", a.Threshold, want)
	}
}
