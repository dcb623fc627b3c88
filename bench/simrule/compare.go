package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/perfmut/perfmut/score"
)

// A drifty comparison: one benchmark's sec/op, each sample lognormal
// noise sigma of its own, times a load factor the round's two samples
// share (lognormal, drift; 0 for none), NEW slowed by shift.
type drifty struct{ sigma, drift, shift float64 }

// simulateCompare runs runs comparisons of one benchmark under r (as
// perfmut compare decides it: r.ForBenchmarks(1, 0), DecideChange after
// every round until it decides) and returns the fraction whose sec/op is
// slower, the fraction faster, and the mean rounds.
func simulateCompare(r score.Rule, d drifty, runs int, seed uint64) (slower, faster, meanN float64) {
	rule := r.ForBenchmarks(1, 0)
	verdicts := make([]score.ChangeVerdict, runs)
	ns := make([]int, runs)
	forEach(runs, func(c int) {
		rng := rand.New(rand.NewPCG(seed, uint64(c)))
		s := []score.Sample{{Benchmark: "BenchmarkX", Metric: score.SecPerOp}}
		for n := 1; n <= rule.MaxSamples; n++ {
			load := math.Exp(d.drift * rng.NormFloat64())
			s[0].Baseline = append(s[0].Baseline, 1e-6*load*math.Exp(d.sigma*rng.NormFloat64()))
			s[0].Mutant = append(s[0].Mutant, 1e-6*d.shift*load*math.Exp(d.sigma*rng.NormFloat64()))
			if ch := rule.DecideChange(s); ch.Decision != score.Continue {
				verdicts[c], ns[c] = ch.Metrics[0].Verdict, n
				break
			}
		}
	})
	var sl, fa, total int
	for c := range runs {
		switch verdicts[c] {
		case score.Slower:
			sl++
		case score.Faster:
			fa++
		}
		total += ns[c]
	}
	return float64(sl) / float64(runs), float64(fa) / float64(runs), float64(total) / float64(runs)
}

// compareTable prints the power of perfmut compare's rule (default alpha
// 0.05 over one benchmark) with and without a drift shared by each
// round's two samples, runs comparisons a cell.
func compareTable(w io.Writer, runs int) {
	fmt.Fprintf(w, "## perfmut compare, one benchmark, sample noise sigma 0.05, %d comparisons a cell; slower rate (faster rate) [mean rounds]\n\n", runs)
	drifts := []float64{0, 0.2, 0.5}
	fmt.Fprintf(w, "| min effect, NEW/OLD |")
	for _, d := range drifts {
		fmt.Fprintf(w, " shared drift sigma %g |", d)
	}
	fmt.Fprintf(w, "\n| --- |")
	for range drifts {
		fmt.Fprintf(w, " --- |")
	}
	fmt.Fprintln(w)
	for _, me := range []float64{1.05, 1.01} {
		for _, shift := range []float64{1, 1.05, 1.1} {
			fmt.Fprintf(w, "| %g, %g |", me, shift)
			for _, d := range drifts {
				sl, fa, n := simulateCompare(score.Rule{MinEffect: me}, drifty{0.05, d, shift}, runs, 29)
				fmt.Fprintf(w, " %.3f (%.3f) [%.1f] |", sl, fa, n)
			}
			fmt.Fprintln(w)
		}
	}
}
