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
	// 12 spend nothing there, so the increase (p = 1/252) does not kill
	// there: killing whatever the level let a family of many two-valued
	// counts exceed alpha (bench/simrule -family, 20 benchmarks: 0.063).
	// At the second look, constant over 10 values a side, it does.
	many := []Sample{five}
	for i := range 11 {
		s := time
		s.Benchmark = string(rune('B' + i))
		many = append(many, s)
	}
	v = r.DecideWithoutIntervals(many)
	if b := v.Tests[0]; b.Reject || !b.Deterministic || v.Decision != Continue || len(b.Warnings) == 0 {
		t.Errorf("twelve tests, first look: %s %+v, want no kill, deterministic, a warning why", v.Decision, b)
	}
	for i := range many {
		many[i].Baseline = append(many[i].Baseline, many[i].Baseline...)
		many[i].Mutant = append(many[i].Mutant, many[i].Mutant...)
	}
	if got := r.lookAt(10); got != 1 {
		t.Fatalf("10 values: look %d, want the second (looks %v)", got+1, r.Looks())
	}
	v = r.DecideWithoutIntervals(many)
	if b := v.Tests[0]; !b.Reject || !b.Deterministic || v.Decision != Kill || !(b.PAdj <= b.Threshold) {
		t.Errorf("twelve tests, second look: %s %+v, want a kill at the level", v.Decision, b)
	}
}

// TestDeterministicChangeShowsP: in a comparison whose alpha is shared by
// 20 benchmarks (0.0025; looks at 7, 14, 28, 30 rounds), a count that
// doubles in every one of the first 7 rounds cannot reach the first
// look's level (2^-7 above 0.00125), yet it changed: slower, with p_adj
// below 1 beside the rejection.
func TestDeterministicChangeShowsP(t *testing.T) {
	r := Rule{MinEffect: 1.05}.ForBenchmarks(20, 0)
	if looks := r.pairedLooks(); looks[0] != 7 {
		t.Fatalf("paired looks %v, want the first at 7", looks)
	}
	seven := func(v float64) []float64 {
		xs := make([]float64, 7)
		for i := range xs {
			xs[i] = v
		}
		return xs
	}
	c := r.DecideChange([]Sample{
		{Benchmark: "B", Metric: SecPerOp, Baseline: seven(100), Mutant: seven(100)},
		{Benchmark: "B", Metric: BytesPerOp, Baseline: seven(64), Mutant: seven(128)},
		{Benchmark: "B", Metric: AllocsPerOp, Baseline: seven(2), Mutant: seven(2)},
	})
	b := c.Metrics[1]
	if c.Decision != Kill || b.Verdict != Slower || !b.Forward.Deterministic || !b.Forward.Reject || !b.Forward.Excluded || !(b.Forward.PAdj < 1) {
		t.Errorf("B/op 64 -> 128 in every round: %s %s %+v, want kill, slower, deterministic, excluded, p_adj below 1", c.Decision, b.Verdict, b.Forward)
	}
}
