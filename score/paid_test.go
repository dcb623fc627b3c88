package score

import "testing"

// TestPaidCounts: beside one time test, a B/op split 5/5 at the first look
// (reachable p 1/252, as a deterministic increase only) is paid for by the
// late counts (payCounts): out of the family, which keeps one test with
// the levels calibrated for Alpha less 1/252 (levelTable.Paid), and
// compared at the first look with the late counts' level, which holds
// 1/252 for it; a deterministic increase there kills within that level.
// Beside two time tests the count stays in the family (row 3).
func TestPaidCounts(t *testing.T) {
	r := DefaultRule()
	tab := r.calibration()
	time := func(name string, n int) Sample {
		s := Sample{Benchmark: name, Metric: SecPerOp}
		for i := range n {
			s.Baseline = append(s.Baseline, float64(100+2*i))
			s.Mutant = append(s.Mutant, float64(101+2*i))
		}
		return s
	}
	mixed := Sample{Benchmark: "B", Metric: BytesPerOp, Baseline: []float64{2337, 2338, 2337, 2338, 2337}, Mutant: []float64{2338, 2337, 2338, 2337, 2338}}
	seq, _, paid := r.sequenceFamily([]Sample{time("B", 5), mixed})
	if !seq[0] || seq[1] || paid != 1 {
		t.Fatalf("one time test and a B/op split 5/5: family %v, paid %d; want [true false], 1", seq, paid)
	}
	sp := r.split(1, 1)
	_, top := r.refLook()
	if sp.k != 1 || sp.paid != 1 || !close(sp.reserve, top) || !close(sp.budget, r.Alpha-withError(tab.PaidRates[0], tab.Reps)) || sp.budget <= top {
		t.Errorf("split beside one paid count %+v: want reserve %v and budget Alpha less PaidRates[0] (%v)", sp, top, tab.PaidRates[0])
	}

	det := Sample{Benchmark: "B", Metric: BytesPerOp, Baseline: []float64{2337, 2337, 2337, 2337, 2337}, Mutant: []float64{2338, 2338, 2338, 2338, 2338}}
	v := r.DecideWithoutIntervals([]Sample{time("B", 5), det})
	ts, bs := v.Tests[0], v.Tests[1]
	cl := r.countLevel(0, sp)
	if v.Decision != Kill || v.Look != 1 || !bs.Reject || !bs.Deterministic || bs.Excluded || !close(bs.Threshold, cl) || bs.P > cl {
		t.Errorf("deterministic B/op beside one time test: %s at look %d, B/op %+v; want a kill within the late counts' level %v", v.Decision, v.Look, bs, cl)
	}
	if !close(cl, top+(sp.budget-sp.reserve)/2) {
		t.Errorf("late counts' level at the first look %v, want 1/252 + half of the rest of the budget (%v)", cl, top+(sp.budget-sp.reserve)/2)
	}
	if !close(ts.Threshold, tab.Paid[0][0]) {
		t.Errorf("sec/op threshold %v at the first look, want the paid row's %v", ts.Threshold, tab.Paid[0][0])
	}

	// At the last look the time test keeps the paid row (0.0354 at 30
	// samples, not row 2's 0.0173).
	b30 := mixed
	for range 5 {
		b30.Baseline = append(b30.Baseline, mixed.Baseline[:5]...)
		b30.Mutant = append(b30.Mutant, mixed.Mutant[:5]...)
	}
	v = r.DecideWithoutIntervals([]Sample{time("B", 30), b30})
	if v.Look != 4 || !close(v.Tests[0].Threshold, tab.Paid[0][3]) || tab.Paid[0][3] <= tab.PerTest[1][3] {
		t.Errorf("last look: look %d, sec/op threshold %v; want the paid row's %v, above row 2's %v", v.Look, v.Tests[0].Threshold, tab.Paid[0][3], tab.PerTest[1][3])
	}

	// Two time tests: the count stays in the family of three.
	seq, _, paid = r.sequenceFamily([]Sample{time("B", 5), mixed, time("C", 5)})
	if !seq[1] || paid != 0 {
		t.Errorf("two time tests and a B/op split 5/5: family %v, paid %d; want the B/op in, none paid", seq, paid)
	}
}
