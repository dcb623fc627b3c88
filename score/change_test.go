package score

import (
	"math"
	"testing"
)

// spread returns n values around center: center * (1 + width*(i/(n-1) - 0.5)),
// interleaved so that every prefix covers the range.
func spread(n int, center, width float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		k := (i * 7) % n // a fixed permutation of 0..n-1 for n not a multiple of 7
		f := 0.0
		if n > 1 {
			f = float64(k)/float64(n-1) - 0.5
		}
		out[i] = center * (1 + width*f)
	}
	return out
}

func TestDecideChange(t *testing.T) {
	rule := Rule{MinEffect: 1.05}.ForBenchmarks(1, 0) // one benchmark: all of alpha
	if rule.MinSamples != 5 {
		t.Fatalf("first look at %d samples, want 5", rule.MinSamples)
	}
	zeros := func(n int) []float64 { return make([]float64, n) }
	for _, tc := range []struct {
		name     string
		old, new []float64
		decision Decision
		verdict  ChangeVerdict
		p, padj  float64 // of the test behind the verdict; 0 = not checked
	}{
		// Complete separation at the first look: p = 1/C(10,5) = 1/252,
		// Holm over the two directions (the reverse test can reach the
		// level too) doubles it.
		{"2x slower", spread(5, 100, 0.02), spread(5, 200, 0.02), Kill, Slower, 1.0 / 252, 2.0 / 252},
		{"2x faster", spread(5, 200, 0.02), spread(5, 100, 0.02), Kill, Faster, 1.0 / 252, 2.0 / 252},
		// 1% slower without noise: the test rejects, but the median ratio
		// 1.01 is below the minimum effect 1.05; the interval lies within
		// [1/1.05, 1.05]: same, at the first look.
		{"1% below min effect", spread(5, 100, 0.001), spread(5, 101, 0.001), Survive, Same, 0, 0},
		{"same, tight", spread(5, 100, 0.01), spread(5, 100.2, 0.01), Survive, Same, 0, 0},
		// Noise of +-50%: no test can reject and the interval is wide; the
		// rule keeps sampling (a futility stop alone does not decide)...
		{"noisy, early", spread(5, 100, 1), spread(5, 100, 1), Continue, "", 0, 0},
		// ...and at MaxSamples calls it undecided.
		{"noisy, last look", spread(30, 100, 1), spread(29, 100, 1.01)[:29:29], Continue, "", 0, 0},
		{"noisy, 30", spread(30, 100, 1), spread(30, 101, 1), Survive, Undecided, 0, 0},
		// Constant zeros (allocs/op): no test can reject (Tarone), the
		// interval is [1, 1].
		{"constant", zeros(5), zeros(5), Survive, Same, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := rule.DecideChange([]Sample{{Benchmark: "BenchmarkX", Metric: "sec/op", Baseline: tc.old, Mutant: tc.new}})
			if c.Decision != tc.decision {
				t.Fatalf("decision %s, want %s (warnings %q)", c.Decision, tc.decision, c.Warnings)
			}
			if len(c.Metrics) != 1 {
				t.Fatalf("%d metrics, want 1", len(c.Metrics))
			}
			m := c.Metrics[0]
			if m.Verdict != tc.verdict {
				t.Errorf("verdict %q, want %q (forward %+v, reverse %+v)", m.Verdict, tc.verdict, m.Forward, m.Reverse)
			}
			if tc.p != 0 {
				if got := m.Test(); math.Abs(got.P-tc.p) > 1e-12 || math.Abs(got.PAdj-tc.padj) > 1e-12 {
					t.Errorf("p %v, p_adj %v; want %v, %v", got.P, got.PAdj, tc.p, tc.padj)
				}
			}
			if m.Reverse.Benchmark != "BenchmarkX" {
				t.Errorf("reverse test named %q", m.Reverse.Benchmark)
			}
		})
	}
}

// A change in one metric does not end the search for one in another.
func TestDecideChangeGoesOnWhileUndecided(t *testing.T) {
	rule := Rule{MinEffect: 1.05}.ForBenchmarks(1, 0)
	samples := []Sample{
		{Benchmark: "B", Metric: "sec/op", Baseline: spread(5, 100, 1), Mutant: spread(5, 100, 1)},
		{Benchmark: "B", Metric: "allocs/op", Baseline: spread(5, 10, 0.01), Mutant: spread(5, 5, 0.01)},
	}
	if c := rule.DecideChange(samples); c.Decision != Continue {
		t.Fatalf("decision %s with sec/op undecided, want continue", c.Decision)
	}
}

func TestForBenchmarks(t *testing.T) {
	r := DefaultRule().ForBenchmarks(4, 0)
	if r.Alpha != 0.0125 || r.MinSamples != 6 {
		t.Errorf("4 benchmarks: alpha %v, first look %d; want 0.0125, 6", r.Alpha, r.MinSamples)
	}
	if r := DefaultRule().ForBenchmarks(4, 10); r.MinSamples != 10 {
		t.Errorf("-min-samples 10 gives a first look at %d", r.MinSamples)
	}
}

func TestExceeds(t *testing.T) {
	for _, tc := range []struct {
		ratio, max float64
		want       bool
	}{
		{1.04, 0.05, false}, {1.06, 0.05, true}, {1.0001, 0, true}, {1, 0, false},
		{UnboundedRatio, 10, true}, {math.NaN(), 0, false},
	} {
		if got := Exceeds(tc.ratio, tc.max); got != tc.want {
			t.Errorf("Exceeds(%v, %v) = %v", tc.ratio, tc.max, got)
		}
	}
}
