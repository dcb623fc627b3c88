package score

import (
	"math"
	"math/rand/v2"
	"testing"
)

// counts draws n instruction counts per op around mean with a coefficient
// of variation cv (the A/A spread measured under valgrind: about 0.09%).
func counts(rng *rand.Rand, n int, mean, cv float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Round(mean * (1 + cv*rng.NormFloat64()))
	}
	return xs
}

// TestInstructionsPerOp: instructions/op is tested like a time. With a
// baseline of 1.000e6 instructions/op (CV 0.1%), a mutant 5% higher is
// killed at the first look (a full separation, p = 1/252, ratio 1.05
// above the minimum effect); the baseline against itself is never killed
// and survives at the first look with its ratios' upper bound (the
// margin applies) within 1.05; a systematic 0.5% (code layout, say) is
// significant but below the minimum effect: it survives, not killed.
func TestInstructionsPerOp(t *testing.T) {
	if !HigherIsWorse(InstructionsPerOp, nil) || IsCount(InstructionsPerOp) {
		t.Fatalf("instructions/op: higher is worse %v, count %v; want true, false", HigherIsWorse(InstructionsPerOp, nil), IsCount(InstructionsPerOp))
	}
	r := DefaultRule()
	for _, tt := range []struct {
		name  string
		shift float64
		want  Decision
	}{
		{"+5%", 1.05, Kill},
		{"A/A", 1, Survive},
		{"+0.5%, below the minimum effect", 1.005, Survive},
	} {
		kills, first := 0, 0
		for c := range 200 {
			rng := rand.New(rand.NewPCG(17, uint64(c)))
			n := r.Looks()[0]
			s := Sample{Benchmark: "BenchmarkJoinLower", Metric: InstructionsPerOp,
				Baseline: counts(rng, n, 1e6, 0.001), Mutant: counts(rng, n, 1e6*tt.shift, 0.001)}
			v := r.ForMutant(tt.name).DecideWithoutIntervals([]Sample{s})
			if v.Decision == Kill {
				kills++
			}
			if v.Decision == tt.want {
				first++
			}
			if v.Decision == Survive && !(v.Tests[0].Upper > 0 && v.Tests[0].Upper <= r.Margin) {
				t.Fatalf("%s: survived with the upper bound %v, want it set and at most %v", tt.name, v.Tests[0].Upper, r.Margin)
			}
		}
		if tt.want != Kill && kills > 0 {
			t.Errorf("%s: %d of 200 killed, want none", tt.name, kills)
		}
		if first != 200 {
			t.Errorf("%s: %d of 200 %s at the first look, want all", tt.name, first, tt.want)
		}
	}
}
