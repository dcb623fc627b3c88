package score

import (
	"slices"
	"testing"
)

// TestBreakTies: ties of a time metric are broken within half the smallest
// gap (distinct values keep their order), the same way at every look and
// for every call with the same seed; counts, samples without ties and
// constant samples are left as they are; MWU's samples are never changed.
func TestBreakTies(t *testing.T) {
	s := Sample{Benchmark: "BenchmarkA", Metric: SecPerOp, Baseline: []float64{100, 101, 101, 102, 100, 103}, Mutant: []float64{101, 103, 100, 104, 100, 99}}
	b := breakTies(s, 7)
	pooled := append(slices.Clone(b.Baseline), b.Mutant...)
	orig := append(slices.Clone(s.Baseline), s.Mutant...)
	for i, x := range pooled {
		if x < orig[i] || x >= orig[i]+0.5 {
			t.Errorf("value %d: %v from %v, want within [v, v+0.5)", i, x, orig[i])
		}
	}
	if d := slices.Compact(slices.Sorted(slices.Values(pooled))); len(d) != len(pooled) {
		t.Errorf("ties left: %v", pooled)
	}
	if again := breakTies(s, 7); !slices.Equal(again.Baseline, b.Baseline) || !slices.Equal(again.Mutant, b.Mutant) {
		t.Errorf("not reproducible: %v then %v", b, again)
	}
	if other := breakTies(s, 8); slices.Equal(other.Baseline, b.Baseline) && slices.Equal(other.Mutant, b.Mutant) {
		t.Errorf("another seed gave the same values %v", other)
	}
	// A look at 4 samples orders the first four values of each side as
	// the look at 6 does.
	prefix := Sample{Benchmark: s.Benchmark, Metric: s.Metric, Baseline: s.Baseline[:4], Mutant: s.Mutant[:4]}
	p := breakTies(prefix, 7)
	rank := func(xs, all []float64) []int {
		var r []int
		for _, x := range xs {
			n := 0
			for _, y := range all {
				if y < x {
					n++
				}
			}
			r = append(r, n)
		}
		return r
	}
	fullPrefix := append(slices.Clone(b.Baseline[:4]), b.Mutant[:4]...)
	ownPrefix := append(slices.Clone(p.Baseline), p.Mutant...)
	if got, want := rank(ownPrefix, ownPrefix), rank(fullPrefix, fullPrefix); !slices.Equal(got, want) {
		t.Errorf("prefix ranks %v, want those of the full sample's prefix %v", got, want)
	}
	for _, keep := range []Sample{
		{Benchmark: "BenchmarkA", Metric: BytesPerOp, Baseline: []float64{48, 48, 64}, Mutant: []float64{48, 64, 64}},
		{Benchmark: "BenchmarkA", Metric: SecPerOp, Baseline: []float64{1, 2, 3}, Mutant: []float64{4, 5, 6}},
		{Benchmark: "BenchmarkA", Metric: SecPerOp, Baseline: []float64{5, 5, 5}, Mutant: []float64{5, 5, 5}},
	} {
		if got := breakTies(keep, 7); !slices.Equal(got.Baseline, keep.Baseline) || !slices.Equal(got.Mutant, keep.Mutant) {
			t.Errorf("breakTies(%v) = %v, want it unchanged", keep, got)
		}
	}
	if got := (Rule{Test: MWU, Seed: 7}).ranked(s); !slices.Equal(got.Baseline, s.Baseline) || !slices.Equal(got.Mutant, s.Mutant) {
		t.Errorf("mwu ranked %v, want the sample unchanged", got)
	}
	if got := (Rule{Seed: 7}).ranked(s); !slices.Equal(got.Baseline, b.Baseline) {
		t.Errorf("ks ranked %v, want ties broken %v", got, b)
	}
}

// TestSequenceFamily: the family is fixed at the first look (5 samples):
// a two-valued count that cannot reach 1/252 there stays out at 10 samples
// although it can reach that look's level by then; a test that reaches
// the first look's level stays in; a sample whose rounds do not reach the
// first look is in; a constant count is out.
func TestSequenceFamily(t *testing.T) {
	r := DefaultRule()
	bytes := Sample{Benchmark: "A", Metric: BytesPerOp, // 5 values: 3 of 10 high at 5 rounds
		Baseline: []float64{1, 1, 1, 1, 1, 2, 2, 2, 2, 2}, Mutant: []float64{2, 1, 2, 1, 2, 1, 2, 2, 2, 2}}
	time := Sample{Benchmark: "A", Metric: SecPerOp,
		Baseline: []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, Mutant: []float64{1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5}}
	allocs := Sample{Benchmark: "A", Metric: AllocsPerOp, Baseline: []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, Mutant: []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}}
	late := Sample{Benchmark: "B", Metric: "p99-ns/op", Baseline: []float64{1, 2, 3, 4, 5, 6}, Mutant: []float64{1, 2, 3, 4, 5, 6}, Missing: []int{0, 1, 2, 3}}
	in, complete, _ := r.sequenceFamily([]Sample{bytes, time, allocs, late})
	if !slices.Equal(in, []bool{false, true, false, true}) || !slices.Equal(complete, []bool{true, true, true, false}) {
		t.Errorf("family %v, complete %v; want [false true false true], [true true true false]", in, complete)
	}
	if p := KS.ReachableP(bytes.Baseline, bytes.Mutant); p > r.perTestLevel(1, 2) {
		t.Errorf("the B/op's reachable p-value at 10 samples is %v, above the level %v: the case does not test a count that could join", p, r.perTestLevel(1, 2))
	}
	// At 10 samples the B/op is a late count (out of the family, a count):
	// the late counts' level beside a family of 2 (0.05 less what two
	// tests spend with a margin for the simulation, 0.0020, times the
	// second look's share 1/6: 0.000332) is below its reachable p-value
	// 0.000357.
	v := r.DecideWithoutIntervals([]Sample{bytes, time, allocs, late})
	if !v.Tests[0].Excluded || v.Tests[0].PAdj != 1 || v.Tests[0].Warnings[0] != "cannot reject: the smallest p-value any split of these 10 and 10 values gives is 0.000357 (ties among the pooled values), above this look's level 0.000332; left out of the holm correction (Tarone)" {
		t.Errorf("B/op at 10 samples: %+v, want excluded below the late counts' level", v.Tests[0])
	}
	// A time test out of the family stays out for good.
	flat := Sample{Benchmark: "C", Metric: SecPerOp, Baseline: []float64{1, 1, 1, 1, 1, 1, 2, 3, 4, 5}, Mutant: []float64{1, 1, 1, 1, 1, 6, 7, 8, 9, 10}}
	v = r.DecideWithoutIntervals([]Sample{time, flat})
	if !v.Tests[1].Excluded || v.Tests[1].Reject || v.Tests[1].Warnings[0] != "cannot reject: not in this mutant's family, fixed at look 1, where its values could not reach the level (Tarone)" {
		t.Errorf("constant sec/op at look 1, then higher: %+v, want excluded with the family's warning", v.Tests[1])
	}
}
