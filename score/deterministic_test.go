package score

import "testing"

// TestDeterministicNeedsValues: a count constant on each side and larger
// on the mutant's kills as a deterministic increase only with at least the
// first look's count of values a side. After four censored rounds of five
// a B/op has one value a side: not evidence of a constant count, so it is
// tested (p = 0.5) and does not reject; no test shows reject beside a
// p_adj of 1.
func TestDeterministicNeedsValues(t *testing.T) {
	time := Sample{Benchmark: "A", Metric: SecPerOp, Baseline: []float64{1, 2, 3, 4, 5}, Mutant: []float64{1.1, 2.1, 3.1, 4.1, 5.1}}
	one := Sample{Benchmark: "A", Metric: BytesPerOp, Baseline: []float64{2048}, Mutant: []float64{4096}, Missing: []int{0, 1, 2, 3}}
	five := Sample{Benchmark: "A", Metric: BytesPerOp, Baseline: []float64{2048, 2048, 2048, 2048, 2048}, Mutant: []float64{4096, 4096, 4096, 4096, 4096}}
	r := DefaultRule()
	v := r.DecideWithoutIntervals([]Sample{time, one})
	if b := v.Tests[1]; b.Deterministic || b.Reject || b.P != 0.5 {
		t.Errorf("one value a side: %+v, want tested (p 0.5), not deterministic, no reject", b)
	}
	v = r.DecideWithoutIntervals([]Sample{time, five})
	if b := v.Tests[1]; !b.Deterministic || !b.Reject || v.Decision != Kill || !(b.PAdj < 1) {
		t.Errorf("five values a side: %s %+v, want a deterministic kill with p_adj below 1", v.Decision, b)
	}
	// Twelve tests at the first look: the calibrated levels of a family of
	// 12 spend nothing there, so every test is out of the correction
	// (p_adj 1), yet the increase rejects: it shows p over the family.
	many := []Sample{five}
	for i := range 11 {
		s := time
		s.Benchmark = string(rune('B' + i))
		many = append(many, s)
	}
	v = r.DecideWithoutIntervals(many)
	if b := v.Tests[0]; !b.Reject || !(b.PAdj < 1) || v.Decision != Kill {
		t.Errorf("twelve tests: %s %+v, want a deterministic kill with p_adj below 1", v.Decision, b)
	}
	for _, tr := range v.Tests {
		if tr.Reject && tr.PAdj >= 1 {
			t.Errorf("%s %s rejects beside p_adj %v", tr.Benchmark, tr.Metric, tr.PAdj)
		}
	}
}
