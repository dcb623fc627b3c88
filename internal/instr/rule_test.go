package instr

import (
	"math/rand/v2"
	"testing"

	"github.com/perfmut/perfmut/score"
)

// countSample draws n instruction counts per operation around mean:
// Gaussian with a coefficient of variation cv, and with probability
// outlier a sample cv*5 higher (a GC cycle or a page-allocator search the
// other runs did not make).
func countSample(rng *rand.Rand, n int, mean, cv, outlier float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = mean * (1 + cv*rng.NormFloat64())
		if rng.Float64() < outlier {
			xs[i] += mean * cv * 5
		}
	}
	return xs
}

// TestRuleOnCounts simulates the default rule, round by round as the
// runner applies it, on near-deterministic counts like the measured ones
// (docs/statistics.md, "Instruction counts": a coefficient of variation
// of 0.06 to 0.09%), drawn with a CV of 0.1% and, for the A/A rows, also
// 0.3%: with the same code on both sides it never kills (at a CV of 8.7%,
// a map benchmark's, it kills within alpha); a 2% or 5%
// increase is always killed at the first look (5 samples each); an
// increase below the minimum effect (0.5%) is killed at most 1% of the
// time (when outliers lift its median ratio past 1.01); and at least 95%
// of the mutants are decided at the first look, but those whose effect is
// near the minimum effect. Without the minimum effect the A/A false kills
// stay within alpha (5%, up to three standard errors of the simulation):
// exchangeable samples are all the rule's p-values need. At MinEffect
// (0.5%), the counts' own, A/A at a CV of 0.1% never kills, at 0.3% with
// outliers within alpha (6 of 2000); +0.3% is killed at most 1% of the
// time, +1% and +1.4% (a measured mutant's effect) always at the
// first look.
func TestRuleOnCounts(t *testing.T) {
	const trials = 2000
	rule := score.DefaultRule()
	for _, tc := range []struct {
		name             string
		effect, cv       float64
		outlier          float64
		minKill, maxKill int
		noMinEffect      bool
		minEffect        float64 // 0: the rule's default
	}{
		// alpha 0.05 plus three standard errors of 2000 trials: 129
		{"A/A without the minimum effect", 1, 0.001, 0, 0, 129, true, 0},
		{"A/A", 1, 0.001, 0, 0, 0, false, 0},
		{"A/A with outliers", 1, 0.001, 0.05, 0, 0, false, 0},
		{"A/A at CV 0.3%", 1, 0.003, 0, 0, 0, false, 0},
		{"A/A at CV 0.3% with outliers", 1, 0.003, 0.05, 0, 0, false, 0},
		// like the cache's BenchmarkPut, whose map seed varies its count
		{"A/A at CV 8.7%", 1, 0.087, 0, 0, 129, false, 0},
		{"+0.5%", 1.005, 0.001, 0.05, 0, trials / 100, false, 0},
		{"+2%", 1.02, 0.001, 0.05, trials, trials, false, 0},
		{"+5%", 1.05, 0.001, 0.05, trials, trials, false, 0},
		// at MinEffect, the minimum effect of instruction counts
		{"A/A at the counts' minimum effect", 1, 0.001, 0.05, 0, 0, false, MinEffect},
		{"A/A at CV 0.3% at the counts' minimum effect", 1, 0.003, 0.05, 0, 129, false, MinEffect},
		{"+0.3% at the counts' minimum effect", 1.003, 0.001, 0.05, 0, trials / 100, false, MinEffect},
		{"+1% at the counts' minimum effect", 1.01, 0.001, 0.05, trials, trials, false, MinEffect},
		{"+1.4% at the counts' minimum effect", 1.014, 0.001, 0.05, trials, trials, false, MinEffect},
	} {
		rule := rule
		if tc.noMinEffect {
			rule.MinEffect = 1
		}
		if tc.minEffect > 0 {
			rule.MinEffect = tc.minEffect
		}
		rng := rand.New(rand.NewPCG(1, 2))
		killed, first, samples := 0, 0, 0
		for range trials {
			s := score.Sample{Benchmark: "BenchmarkX", Metric: "instructions/op"}
			for {
				s.Baseline = append(s.Baseline, countSample(rng, 1, 85229, tc.cv, tc.outlier)...)
				s.Mutant = append(s.Mutant, countSample(rng, 1, 85229*tc.effect, tc.cv, tc.outlier)...)
				v := rule.Decide([]score.Sample{s})
				if v.Decision == score.Continue {
					continue
				}
				if v.Decision == score.Kill {
					killed++
				}
				if len(s.Baseline) == rule.MinSamples {
					first++
				}
				samples += len(s.Baseline)
				break
			}
		}
		t.Logf("%s: %d of %d killed, %d decided at the first look, %.2f samples each on average", tc.name, killed, trials, first, float64(samples)/trials)
		if killed < tc.minKill || killed > tc.maxKill || (tc.cv == 0.001 && !tc.noMinEffect && !(tc.effect > 1 && tc.effect < 2*rule.MinEffect-1) && first < trials*95/100) {
			t.Errorf("%s: %d killed, %d decided at the first look of %d; want %d to %d killed and 95%% at the first look", tc.name, killed, first, trials, tc.minKill, tc.maxKill)
		}
	}
}
