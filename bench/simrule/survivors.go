package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/perfmut/perfmut/score"
)

// A survivorCase is a row of the survivor table: how the slowed
// benchmark's times are drawn, and how many benchmarks without effect sit
// beside it (each sec/op with the same noise, B/op two-valued at 30% and a
// constant allocs/op).
type survivorCase struct {
	name   string
	sigma  float64 // lognormal noise of every time
	grid   bool    // times on a 20 ns grid around 400 ns
	others int
	// slow returns the slowed benchmark's factor for one mutant sample.
	slow func(rng *rand.Rand) float64
}

// survivorCases are the rows: a benchmark slower by exactly the margin
// (x1.05) for CV 2% to 30%, continuous and on a grid, alone and beside one
// to three benchmarks without effect; then intermittent slowdowns (x1.6 in
// 10% of the mutant's runs, x1.2 in 30%), which the median bound does not
// see.
func survivorCases() []survivorCase {
	atMargin := func(*rand.Rand) float64 { return score.DefaultMargin }
	var cs []survivorCase
	for _, sigma := range []float64{0.02, 0.05, 0.1, 0.2, 0.3} {
		for _, grid := range []bool{false, true} {
			for _, others := range []int{0, 1, 3} {
				kind := "continuous"
				if grid {
					kind = "20 ns grid"
				}
				cs = append(cs, survivorCase{fmt.Sprintf("x1.05, sigma %g, %s, %d more benchmarks", sigma, kind, others), sigma, grid, others, atMargin})
			}
		}
	}
	sometimes := func(f, share float64) func(*rand.Rand) float64 {
		return func(rng *rand.Rand) float64 {
			if rng.Float64() < share {
				return f
			}
			return 1
		}
	}
	for _, sigma := range []float64{0.02, 0.05} {
		cs = append(cs,
			survivorCase{fmt.Sprintf("x1.6 in 10%% of runs, sigma %g", sigma), sigma, false, 0, sometimes(1.6, 0.1)},
			survivorCase{fmt.Sprintf("x1.2 in 30%% of runs, sigma %g", sigma), sigma, false, 0, sometimes(1.2, 0.3)},
			survivorCase{fmt.Sprintf("no effect, sigma %g", sigma), sigma, false, 0, func(*rand.Rand) float64 { return 1 }})
	}
	return cs
}

// simulateSurvivors runs runs mutants of c under r and tallies them.
func simulateSurvivors(r score.Rule, c survivorCase, runs int, seed uint64) outcomes {
	type spec struct {
		bench, metric string
		slowed        bool
	}
	specs := []spec{{"BenchmarkSlow", score.SecPerOp, true}}
	for b := range c.others {
		name := fmt.Sprintf("Benchmark%c", 'A'+b)
		specs = append(specs, spec{name, score.SecPerOp, false}, spec{name, score.BytesPerOp, false}, spec{name, score.AllocsPerOp, false})
	}
	vs := make([]score.Verdict, runs)
	ns := make([]int, runs)
	forEach(runs, func(k int) {
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		samples := make([]score.Sample, len(specs))
		for i, s := range specs {
			samples[i] = score.Sample{Benchmark: s.bench, Metric: s.metric}
		}
		vs[k], ns[k] = untilDecided(r.ForMutant(fmt.Sprint(k)), samples, func(i int, baseline bool) float64 {
			switch specs[i].metric {
			case score.BytesPerOp:
				return twoValued(2337, 0.3)(rng)
			case score.AllocsPerOp:
				return 181
			}
			v := 400 * math.Exp(c.sigma*rng.NormFloat64())
			if !baseline && specs[i].slowed {
				v *= c.slow(rng)
			}
			if c.grid {
				v = 20 * math.Round(v/20)
			}
			return v
		})
	})
	return countOutcomes(vs, ns)
}

// survivorTable prints, for each survivorCase, the share of mutants that
// survived (with its 95% Wilson interval), were killed or ended
// undecided, and the mean samples, under the default rule: the survivor's
// promise is P(survived | slower by the margin) <= 0.05.
func survivorTable(w io.Writer, runs int) {
	fmt.Fprintf(w, "## Survivors of the default rule (margin x1.05), %d mutants a row: survived [95%% interval] / killed / undecided, mean samples\n\n", runs)
	fmt.Fprintf(w, "| slowed benchmark | survived | killed | undecided | mean samples |\n| --- | --- | --- | --- | --- |\n")
	for _, c := range survivorCases() {
		o := simulateSurvivors(score.Rule{}, c, runs, 37)
		f := func(k int) float64 { return float64(k) / float64(o.runs) }
		lo, hi := wilson(f(o.survive), runs)
		fmt.Fprintf(w, "| %s | %.4f [%.4f, %.4f] | %.3f | %.3f | %.1f |\n", c.name, f(o.survive), lo, hi, f(o.kill), f(o.abstain), float64(o.samples)/float64(o.runs))
	}
}
