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

// TestRuleFamily: the family size is the number of tests that can reach
// some family size's level, so a size whose level is 0 at this look (the
// calibrated levels do not fall with K) does not stop the others.
func TestRuleFamily(t *testing.T) {
	holey := func(k int) float64 {
		if k == 3 {
			return 0
		}
		return 0.004
	}
	seven := []float64{1.0 / 252, 1.0 / 252, 1.0 / 252, 1.0 / 252, 1.0 / 252, 1.0 / 252, 1.0 / 252}
	if k, in := ruleFamily(seven, holey); k != 7 || slices.Contains(in, false) {
		t.Errorf("seven reachable tests: K = %d, in %v; want 7, all in", k, in)
	}
	if k, in := reduceFamily(seven, holey); k != 3 || slices.Contains(in, true) {
		t.Errorf("reduceFamily: K = %d, in %v; want Tarone's smallest K, 3, none in", k, in)
	}
	share := func(k int) float64 { return 0.04 / float64(k) }
	if k, in := ruleFamily([]float64{1.0 / 252, 1, 0.5}, share); k != 1 || !slices.Equal(in, []bool{true, false, false}) {
		t.Errorf("one reachable test of three: K = %d, in %v; want 1, [true false false]", k, in)
	}
	if k, in := ruleFamily([]float64{0.03, 0.03, 1.0 / 252}, share); k != 3 || !slices.Equal(in, []bool{false, false, true}) {
		t.Errorf("three reachable at K = 1, one at K = 3: K = %d, in %v; want 3, [false false true]", k, in)
	}
	if k, in := ruleFamily([]float64{1, 1}, share); k != 1 || slices.Contains(in, true) {
		t.Errorf("no reachable test: K = %d, in %v; want 1, none in", k, in)
	}
}
