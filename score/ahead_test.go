package score

import (
	"math/rand/v2"
	"testing"
)

// TestDecideAheadFirstLook: at the first look (5 samples) a benchmark whose
// five mutant samples are all above the baseline's (p = 1/252) kills
// ahead of a second benchmark's three metrics: the family counts them (4
// tests, each at the level 0.003968 of the families of 2 to 8 at alpha
// 0.05; DecideAhead takes the smallest level over the family sizes Decide
// may use, 1 to 4). With ten tests pending (a family of 11, whose first
// look spends no alpha) it cannot.
func TestDecideAheadFirstLook(t *testing.T) {
	r := DefaultRule()
	done := []Sample{{Benchmark: "BenchmarkA", Metric: "sec/op",
		Baseline: []float64{10, 11, 12, 10.5, 11.5}, Mutant: []float64{30, 31, 32, 33, 34}}}
	pending := func(k int) []Sample {
		var ps []Sample
		for i := range k {
			ps = append(ps, Sample{Benchmark: "BenchmarkB", Metric: []string{"sec/op", "B/op", "allocs/op", "p/op", "q/op", "r/op", "s/op", "t/op", "u/op", "v/op"}[i]})
		}
		return ps
	}
	v := r.DecideAhead(done, pending(3))
	if v.Decision != Kill || v.Look != 1 || len(v.Tests) != 1 {
		t.Fatalf("3 pending: %s at look %d with %d tests, want kill at look 1 with 1 test", v.Decision, v.Look, len(v.Tests))
	}
	tr := v.Tests[0]
	if !tr.Reject || !close(tr.P, 1.0/252) || !close(tr.PAdj, 4.0/252) || !close(tr.Threshold, 4*0.003968253972) || tr.RatioLo == 0 {
		t.Errorf("3 pending: test %+v, want reject, p = 1/252, p_adj = 4/252, threshold = 4 x 0.003968253972 and an interval", tr)
	}
	if v := r.DecideAhead(done, pending(10)); v.Decision != Continue || v.Tests[0].Reject {
		t.Errorf("10 pending: %s (reject %v), want continue: a family of 11 spends no alpha at the first look", v.Decision, v.Tests[0].Reject)
	}
	if v := r.DecideAhead(done[:1:1], nil); v.Decision != Kill {
		t.Errorf("nothing pending: %s, want kill", v.Decision)
	}
	short := []Sample{{Benchmark: "BenchmarkA", Metric: "sec/op", Baseline: done[0].Baseline[:4], Mutant: done[0].Mutant[:4]}}
	if v := r.DecideAhead(short, pending(1)); v.Decision != Continue || v.Look != 0 {
		t.Errorf("4 samples: %s at look %d, want continue between looks", v.Decision, v.Look)
	}
}

// TestDecideAheadImpliesDecide: whenever DecideAhead kills at a look,
// Decide kills on the same data with the pending tests brought to that look,
// whatever their values: random done and pending values (slowed or not,
// tied or not) at each look of the default rule, with pending tests that
// have the earlier looks' values.
func TestDecideAheadImpliesDecide(t *testing.T) {
	r := DefaultRule()
	rng := rand.New(rand.NewPCG(7, 8))
	draw := func(n int, scale float64, tied bool) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = scale * (1 + 0.05*rng.NormFloat64())
			if tied {
				xs[i] = float64(int(xs[i] * 2))
			}
		}
		return xs
	}
	looks := r.Looks()
	kills := 0
	for trial := range 3000 {
		k := trial % len(looks)
		n, prev := looks[k], 0
		if k > 0 {
			prev = looks[k-1]
		}
		var done, full []Sample
		nd, np := 1+rng.IntN(3), 1+rng.IntN(5)
		var pending []Sample
		for i := range nd + np {
			s := Sample{Benchmark: string(rune('A' + i)), Metric: "sec/op"}
			tied := rng.IntN(4) == 0
			if tied {
				s.Metric = "B/op"
			}
			slow := []float64{1, 1.02, 1.2, 3}[rng.IntN(4)]
			s.Baseline, s.Mutant = draw(n, 1, tied), draw(n, slow, tied)
			full = append(full, s)
			if i < nd {
				done = append(done, s)
				continue
			}
			p := s
			p.Baseline, p.Mutant = s.Baseline[:prev], s.Mutant[:prev]
			pending = append(pending, p)
		}
		a := r.DecideAhead(done, pending)
		if a.Look != k+1 {
			t.Fatalf("trial %d: DecideAhead took look %d, want %d", trial, a.Look, k+1)
		}
		if a.Decision != Kill {
			continue
		}
		kills++
		if v := r.DecideWithoutIntervals(full); v.Decision != Kill {
			t.Fatalf("trial %d, look %d: DecideAhead kills on %d done tests ahead of %d, Decide on all of them says %s", trial, k+1, nd, np, v.Decision)
		}
	}
	if kills < 300 {
		t.Errorf("only %d of 3000 trials killed ahead: the test exercises too little", kills)
	}
}

// TestDecideAheadLateMetric: a custom metric that a pending benchmark has
// not reported yet counts in the family when DecideAhead is given an empty
// sample for it. At the last look (30 samples) BenchmarkA's sec/op has
// p = C(60,19)/C(60,30) = 0.0173, the level of a family of 2 there but
// above that of 3 (0.00782). BenchmarkB's sec/op is pending and its
// p99-ns/op, first reported at the seventh round, is in Decide's family
// (its first look is incomplete): K = 3, no kill. Without the empty
// pending sample DecideAhead would kill ahead where Decide does not.
func TestDecideAheadLateMetric(t *testing.T) {
	r := DefaultRule()
	var base, shifted, bBase, bMut, lBase, lMut []float64
	for i := range 30 {
		base = append(base, float64(i+1))
		shifted = append(shifted, float64(i+1)+10.5)
		bBase = append(bBase, float64(i*7%30))
		bMut = append(bMut, float64((i*11+3)%30)+0.5)
		if i >= 6 {
			lBase = append(lBase, float64(50+i%4))
			lMut = append(lMut, float64(50+i*3%4)+0.5)
		}
	}
	a := Sample{Benchmark: "BenchmarkA", Metric: SecPerOp, Baseline: base, Mutant: shifted}
	b := Sample{Benchmark: "BenchmarkB", Metric: SecPerOp, Baseline: bBase[:5], Mutant: bMut[:5]}
	late := Sample{Benchmark: "BenchmarkB", Metric: "p99-ns/op"}
	if _, p := OneSidedKS(a.Baseline, a.Mutant); !close(p, 0.01729006411638502) {
		t.Fatalf("BenchmarkA's p = %v, want C(60,19)/C(60,30)", p)
	}
	if v := r.DecideAhead([]Sample{a}, []Sample{b}); v.Decision != Kill {
		t.Fatalf("without the late metric pending: %s, want kill ahead (the case must tell)", v.Decision)
	}
	if v := r.DecideAhead([]Sample{a}, []Sample{b, late}); v.Decision != Continue {
		t.Errorf("with the late metric pending: %s, want continue", v.Decision)
	}
	full := Sample{Benchmark: "BenchmarkB", Metric: SecPerOp, Baseline: bBase, Mutant: bMut}
	reported := Sample{Benchmark: "BenchmarkB", Metric: "p99-ns/op", Baseline: lBase, Mutant: lMut, Missing: []int{0, 1, 2, 3, 4, 5}}
	if v := r.DecideWithoutIntervals([]Sample{a, full, reported}); v.Decision == Kill {
		t.Errorf("Decide with the late metric: kill, want none (a family of 3)")
	}
}
