package score

import (
	"strings"
	"testing"
)

// thirty returns 30 rounds of f(i).
func thirty(f func(i int) float64) []float64 {
	xs := make([]float64, 30)
	for i := range xs {
		xs[i] = f(i)
	}
	return xs
}

// tightTime is a sec/op of 30 rounds whose per-round ratios are all 1.001:
// well within the margin.
func tightTime() Sample {
	return Sample{Benchmark: "BenchmarkA", Metric: SecPerOp,
		Baseline: thirty(func(i int) float64 { return 1000 + float64(i%7) }),
		Mutant:   thirty(func(i int) float64 { return 1.001 * (1000 + float64(i%7)) })}
}

// TestCountMustRuleOutIncrease: at the budget, a mutant survives only when
// its counts rule out an increase too. A B/op that is 100 or 200 per round
// (the mutant 200 a little more often, not significant) leaves its per-round
// ratios up to 2: undecided, beside a tight time or alone. Before, counts
// were not held to the margin and both survived. A count constant on each
// side without an increase needs no bound; one that varies within the
// margin survives.
func TestCountMustRuleOutIncrease(t *testing.T) {
	r := DefaultRule()
	bytes := Sample{Benchmark: "BenchmarkA", Metric: BytesPerOp,
		Baseline: thirty(func(i int) float64 { return float64(100 + 100*(i%2)) }),
		Mutant:   thirty(func(i int) float64 { return float64(100 + 100*min(1, (i+1)%2+i/25)) })}
	for _, tt := range []struct {
		name    string
		samples []Sample
		want    Decision
	}{
		{"a varying B/op beside a tight time", []Sample{tightTime(), bytes}, Abstain},
		{"a varying B/op alone", []Sample{bytes}, Abstain},
		{"a constant allocs/op, equal", []Sample{tightTime(), {Benchmark: "BenchmarkA", Metric: AllocsPerOp,
			Baseline: thirty(func(int) float64 { return 3 }), Mutant: thirty(func(int) float64 { return 3 })}}, Survive},
		{"a constant allocs/op, lower", []Sample{tightTime(), {Benchmark: "BenchmarkA", Metric: AllocsPerOp,
			Baseline: thirty(func(int) float64 { return 3 }), Mutant: thirty(func(int) float64 { return 2 })}}, Survive},
		{"a B/op varying within the margin", []Sample{tightTime(), {Benchmark: "BenchmarkA", Metric: BytesPerOp,
			Baseline: thirty(func(i int) float64 { return float64(2337 + i%2) }), Mutant: thirty(func(i int) float64 { return float64(2337 + (i+1)%2) })}}, Survive},
	} {
		v := r.DecideWithoutIntervals(tt.samples)
		if v.Decision != tt.want {
			t.Errorf("%s: %s (%q), want %s", tt.name, v.Decision, v.Warnings, tt.want)
		}
		if tt.want == Abstain && !strings.Contains(v.Reason, "on BenchmarkA B/op after 30 samples") {
			t.Errorf("%s: reason %q, want it to name the B/op", tt.name, v.Reason)
		}
	}
}

// TestVerdictReason: an undecided verdict carries its reason in
// Verdict.Reason, the same text as its "undecided: " warning; a kill or a
// survival has none.
func TestVerdictReason(t *testing.T) {
	r := DefaultRule()
	noisy := Sample{Benchmark: "BenchmarkA", Metric: SecPerOp,
		Baseline: thirty(func(i int) float64 { return 1000 * (1 + 0.4*float64(i%3)) }),
		Mutant:   thirty(func(i int) float64 { return 1000 * (1 + 0.4*float64((i+1)%3)) })}
	v := r.DecideWithoutIntervals([]Sample{noisy})
	if v.Decision != Abstain || v.Reason == "" {
		t.Fatalf("noise of 1.0 to 1.8 (per-round ratios 0.56 to 1.4): %s, reason %q; want abstain with a reason", v.Decision, v.Reason)
	}
	want := "the ratio could still be x1.400 (upper bound of the median per-round ratio, 95% over the looks) on BenchmarkA sec/op after 30 samples; a median slowdown of x1.05 is not ruled out; " + timeHint
	if v.Reason != want {
		t.Errorf("reason %q\nwant   %q", v.Reason, want)
	}
	if w := v.Warnings[len(v.Warnings)-1]; w != UndecidedPrefix+v.Reason {
		t.Errorf("warning %q, want %q", w, UndecidedPrefix+v.Reason)
	}
	if v := r.DecideWithoutIntervals([]Sample{tightTime()}); v.Decision != Survive || v.Reason != "" {
		t.Errorf("tight time: %s, reason %q; want survive without a reason", v.Decision, v.Reason)
	}
}
