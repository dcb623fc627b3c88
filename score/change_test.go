package score

import (
	"math"
	"slices"
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

// reversed is spread in the opposite order: paired with spread, each
// round's two values differ by the spread's noise.
func reversed(n int, center, width float64) []float64 {
	out := spread(n, center, width)
	slices.Reverse(out)
	return out
}

// loaded returns the values of 10 rounds on a machine whose load slows
// both samples of a round alike, by up to 2x: base times that round's
// load factor, and times noise of +-0.4% of its own.
func loaded(base float64, noise []float64) []float64 {
	load := []float64{1.9, 1, 1.2, 1.05, 1.6, 1, 1.1, 2, 1.3, 1}
	out := make([]float64, len(load))
	for i, l := range load {
		out[i] = base * l * (1 + 0.004*noise[i%len(noise)])
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
		// Every round slower at the first look (10 rounds: the paired
		// test's looks start where Same can be said): the signed-rank
		// p-value is 2^-10, Holm over the two directions (the reverse
		// test can reach the level too) doubles it.
		{"2x slower", spread(10, 100, 0.02), spread(10, 200, 0.02), Kill, Slower, 1.0 / 1024, 2.0 / 1024},
		{"2x faster", spread(10, 200, 0.02), spread(10, 100, 0.02), Kill, Faster, 1.0 / 1024, 2.0 / 1024},
		{"2x slower, 5: not a look", spread(5, 100, 0.02), spread(5, 200, 0.02), Continue, "", 0, 0},
		// 1% slower with little noise: the test rejects, but the median
		// ratio 1.01 is below the minimum effect 1.05; at 5 rounds no
		// interval reaches 95% (the sign test needs 6), so the rule goes
		// on; at 10 the interval lies within [1/1.05, 1.05]: same.
		{"1% below min effect, 5", spread(5, 100, 0.001), reversed(5, 101, 0.001), Continue, "", 0, 0},
		{"1% below min effect, 10", spread(10, 100, 0.001), reversed(10, 101, 0.001), Survive, Same, 0, 0},
		{"same, tight", spread(10, 100, 0.01), reversed(10, 100.2, 0.01), Survive, Same, 0, 0},
		// The load of a shared machine slows both samples of a round by
		// up to 2x: the medians of the sides scatter with it, their
		// per-round ratios do not (1.01 +- 0.8%): same.
		{"1% under shared load", loaded(100, []float64{0}), loaded(101, []float64{1, -1, 0}), Survive, Same, 0, 0},
		// Noise of +-50%: no test can reject and the interval is wide; the
		// rule keeps sampling (a futility stop alone does not decide)...
		{"noisy, early", spread(5, 100, 1), reversed(5, 100, 1), Continue, "", 0, 0},
		// ...and at MaxSamples calls it undecided.
		{"noisy, last look", spread(30, 100, 1), reversed(30, 100, 1.01)[:29:29], Continue, "", 0, 0},
		{"noisy, 30", spread(30, 100, 1), reversed(30, 101, 1), Survive, Unsure, 0, 0},
		// Constant zeros (allocs/op): no test can reject (Tarone), every
		// round's ratio is 0/0 = 1: the interval is [1, 1].
		{"constant", zeros(10), zeros(10), Survive, Same, 1, 1},
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
		{Benchmark: "B", Metric: "sec/op", Baseline: spread(5, 100, 1), Mutant: reversed(5, 100, 1)},
		{Benchmark: "B", Metric: "allocs/op", Baseline: spread(5, 10, 0.01), Mutant: spread(5, 5, 0.01)},
	}
	if c := rule.DecideChange(samples); c.Decision != Continue {
		t.Fatalf("decision %s with sec/op undecided, want continue", c.Decision)
	}
}

// A rejection is slower or faster only with the ratio beyond the minimum
// effect in its direction; counts are exempt.
func TestMetricChangeVerdict(t *testing.T) {
	rej := TestResult{Reject: true}
	for _, tc := range []struct {
		name string
		m    MetricChange
		want ChangeVerdict
	}{
		{"slower", MetricChange{Metric: "sec/op", Ratio: 1.2, RatioLo: 1.1, RatioHi: 1.3, Forward: rej}, Slower},
		{"rejects within the minimum effect", MetricChange{Metric: "sec/op", Ratio: 1.03, RatioLo: 1.01, RatioHi: 1.04, Forward: rej}, Unsure},
		{"faster", MetricChange{Metric: "sec/op", Ratio: 0.8, RatioLo: 0.7, RatioHi: 0.9, Reverse: rej}, Faster},
		{"faster within the minimum effect", MetricChange{Metric: "sec/op", Ratio: 0.97, RatioLo: 0.96, RatioHi: 0.98, Reverse: rej}, Unsure},
		{"a count", MetricChange{Metric: "allocs/op", Ratio: 1.01, RatioLo: 1.01, RatioHi: 1.01, Forward: rej}, Slower},
		{"a count down to 0", MetricChange{Metric: "allocs/op", Ratio: 0, RatioLo: 0, RatioHi: 0, Reverse: rej}, Faster},
		{"same", MetricChange{Metric: "sec/op", Ratio: 1.01, RatioLo: 0.96, RatioHi: 1.04}, Same},
		{"undecided", MetricChange{Metric: "sec/op", Ratio: 1.01, RatioLo: 0.96, RatioHi: 1.06}, Unsure},
	} {
		if got := tc.m.verdict(1.05); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestPairedRatio(t *testing.T) {
	ten := []float64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10}
	for _, tc := range []struct {
		name          string
		old, new      []float64
		ratio, lo, hi float64
	}{
		// 10 rounds: the median of the ratios, [2nd, 9th] of them.
		{"10 rounds", ten, []float64{13, 9, 10.5, 8, 11, 10.2, 12, 9.5, 10.1, 10.4}, 1.03, 0.9, 1.2},
		{"no interval below 6", ten[:5], []float64{9, 10, 11, 12, 13}, 1.1, 0, UnboundedRatio},
		{"6 rounds: their range", ten[:6], []float64{9, 10, 11, 12, 13, 14}, 1.15, 0.9, 1.4},
		{"constant counts", []float64{3, 3, 3}, []float64{3, 3, 3}, 1, 1, 1},
		{"0/0 is 1, x/0 unbounded", make([]float64, 6), []float64{0, 0, 0, 0, 0, 64}, 1, 1, UnboundedRatio},
		{"rounds beyond the shorter side", []float64{2, 2, 2, 1}, []float64{2, 2, 2}, 1, 1, 1},
		{"none", nil, nil, 0, 0, 0},
	} {
		ratio, lo, hi := PairedRatio(tc.old, tc.new)
		if math.Abs(ratio-tc.ratio) > 1e-12 || math.Abs(lo-tc.lo) > 1e-12 || hi != tc.hi && math.Abs(hi-tc.hi) > 1e-12 {
			t.Errorf("%s: %v [%v, %v], want %v [%v, %v]", tc.name, ratio, lo, hi, tc.ratio, tc.lo, tc.hi)
		}
	}
}

// signInterval's k are the sign test's: [x(k), x(n+1-k)] covers the
// median with at least 95% (e.g. x(40), x(61) of 100).
func TestSignInterval(t *testing.T) {
	for n, want := range map[int]int{1: 0, 5: 0, 6: 1, 9: 2, 10: 2, 20: 6, 30: 10, 100: 40, 2000: 956} {
		if got := signInterval(n); got != want {
			t.Errorf("signInterval(%d) = %d, want %d", n, got, want)
		}
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
