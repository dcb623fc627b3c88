package main

import (
	"runtime"
	"sync"

	"github.com/perfmut/perfmut/score"
)

// forEach calls f(c) for every c in [0, runs), spread over the CPUs (f
// must draw from a generator of its own c, so that the result does not
// depend on the spread).
func forEach(runs int, f func(c int)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for c := w; c < runs; c += workers {
				f(c)
			}
		})
	}
	wg.Wait()
}

// untilDecided calls the rule at its looks as the runner does, draw(i,
// baseline) giving test i's next value of a side, until it decides; it
// returns the verdict and the samples each.
func untilDecided(r score.Rule, samples []score.Sample, draw func(i int, baseline bool) float64) (score.Verdict, int) {
	var v score.Verdict
	n := 0
	for _, n = range r.Looks() {
		for i := range samples {
			for len(samples[i].Baseline) < n {
				samples[i].Baseline = append(samples[i].Baseline, draw(i, true))
				samples[i].Mutant = append(samples[i].Mutant, draw(i, false))
			}
		}
		if v = r.DecideWithoutIntervals(samples); v.Decision != score.Continue {
			break
		}
	}
	return v, n
}

// killRate is the fraction killed and the mean samples of simulated
// mutants.
func killRate(killed []bool, ns []int) (kill, meanN float64) {
	k, total := 0, 0
	for c := range killed {
		if killed[c] {
			k++
		}
		total += ns[c]
	}
	return float64(k) / float64(len(killed)), float64(total) / float64(len(killed))
}
