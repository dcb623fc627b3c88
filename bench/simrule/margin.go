package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/perfmut/perfmut/score"
)

// An outcome tally of simulated mutants: decisions, and survivors by look.
type outcomes struct {
	runs, kill, survive, abstain int
	surviveBy2                   int // survived at the first or second look
	samples                      int
}

// simulateMargin runs runs mutants of benches benchmarks (sec/op, each
// sample lognormal noise sigma, the mutant slowed by shift) under r,
// calling the rule at its looks, and tallies the outcomes.
func simulateMargin(r score.Rule, benches int, sigma, shift float64, runs int, seed uint64) outcomes {
	vs := make([]score.Verdict, runs)
	ns := make([]int, runs)
	forEach(runs, func(c int) {
		rng := rand.New(rand.NewPCG(seed, uint64(c)))
		samples := make([]score.Sample, benches)
		for i := range samples {
			samples[i] = score.Sample{Benchmark: fmt.Sprintf("Benchmark%d", i), Metric: score.SecPerOp}
		}
		vs[c], ns[c] = untilDecided(r.ForMutant(fmt.Sprint(c)), samples, func(_ int, baseline bool) float64 {
			v := 1e-6 * math.Exp(sigma*rng.NormFloat64())
			if !baseline {
				v *= shift
			}
			return v
		})
	})
	return countOutcomes(vs, ns)
}

// countOutcomes counts the decisions of simulated mutants (vs, with ns samples
// each).
func countOutcomes(vs []score.Verdict, ns []int) outcomes {
	o := outcomes{runs: len(vs)}
	for c, v := range vs {
		switch v.Decision {
		case score.Kill:
			o.kill++
		case score.Survive:
			o.survive++
			if v.Look <= 2 {
				o.surviveBy2++
			}
		case score.Abstain:
			o.abstain++
		}
		o.samples += ns[c]
	}
	return o
}

// marginTable prints what the margin does: the default rule (margin
// x1.05) against the rule without it, for noise from a quiet machine to
// a loaded one and effects of none, the margin itself and 8%.
func marginTable(w io.Writer, runs int) {
	fmt.Fprintf(w, "## The margin: %d mutants a cell, sec/op with lognormal sample noise; killed / survived (by the second look) / undecided, mean samples\n\n", runs)
	vs := []variant{{"default (margin x1.05)", score.Rule{}}, {"no margin", score.Rule{Margin: score.NoMargin}}}
	header(w, "benchmarks, sigma, shift", vs)
	for _, b := range []int{1, 3} {
		for _, sigma := range []float64{0.01, 0.02, 0.05, 0.1, 0.3} {
			for _, shift := range []float64{1, 1.05, 1.08} {
				fmt.Fprintf(w, "| %d, %g, %g |", b, sigma, shift)
				for _, v := range vs {
					o := simulateMargin(v.rule, b, sigma, shift, runs, 31)
					f := func(k int) float64 { return float64(k) / float64(o.runs) }
					fmt.Fprintf(w, " %.3f / %.3f (%.3f) / %.3f, %.1f |", f(o.kill), f(o.survive), f(o.surviveBy2), f(o.abstain), float64(o.samples)/float64(o.runs))
				}
				fmt.Fprintln(w)
			}
		}
	}
}
