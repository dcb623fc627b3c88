package score

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// tieOrder is the order of a sample's pooled values after the rule's
// tie-breaking: the index of each value (baseline first) by rank.
func tieOrder(r Rule, s Sample) []int {
	ranked := r.ranked(s)
	pooled := append(slices.Clone(ranked.Baseline), ranked.Mutant...)
	idx := make([]int, len(pooled))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case pooled[a] < pooled[b]:
			return -1
		case pooled[a] > pooled[b]:
			return 1
		}
		return 0
	})
	return idx
}

// TestTieOrderPerMutant: the ties of one benchmark are broken differently
// for two mutants (Rule.ForMutant mixes the mutant's identity into the
// seed) and for two -seed values, and the same way for the same mutant and
// seed.
func TestTieOrderPerMutant(t *testing.T) {
	s := Sample{Benchmark: "BenchmarkGet", Metric: SecPerOp,
		Baseline: []float64{100, 100, 101, 100, 101, 100, 100, 101, 100, 100},
		Mutant:   []float64{100, 101, 100, 100, 100, 101, 100, 100, 101, 100}}
	one := Rule{Seed: 1}
	a, b := tieOrder(one.ForMutant("m1/opt"), s), tieOrder(one.ForMutant("m2/opt"), s)
	if slices.Equal(a, b) {
		t.Errorf("mutants m1 and m2 on one benchmark break ties the same way: %v", a)
	}
	if c := tieOrder(Rule{Seed: 2}.ForMutant("m1/opt"), s); slices.Equal(a, c) {
		t.Errorf("-seed 1 and 2 break m1's ties the same way: %v", a)
	}
	if again := tieOrder(one.ForMutant("m1/opt"), s); !slices.Equal(a, again) {
		t.Errorf("m1 with -seed 1: %v then %v", a, again)
	}
	if lvl := tieOrder(one.ForMutant("m1/noopt"), s); slices.Equal(a, lvl) {
		t.Errorf("m1 at opt and noopt break ties the same way: %v", a)
	}
}

// tiedKillRate is the false-kill rate of the default rule over n A/A
// campaigns of one mutant (id) on one benchmark name, each with fresh data,
// with heavily tied times (about 100 ns/op in whole nanoseconds with sigma
// 0.01: five values), with -seed 1, no minimum effect (a 1 ns difference
// of medians is above 1.01: the minimum effect would veto most kills and
// hide the tie-breaking) and no futility stop (it ends most of these quiet
// campaigns at the first look, where the levels calibrated without it
// spend little: it can only lower the rate, see TestCalibratedSpend).
func tiedKillRate(name, id string, n int) float64 {
	kills := 0
	r := Rule{Seed: 1, MinEffect: 1, FutilityPower: NoFutility}.ForMutant(id)
	for m := range n {
		rng := rand.New(rand.NewPCG(41, uint64(m)))
		draw := func(bool, int) float64 { return math.Round(100 * math.Exp(0.01*rng.NormFloat64())) }
		if v, _ := runAtLooks(r, []string{name}, []string{SecPerOp}, draw); v.Decision == Kill {
			kills++
		}
	}
	return float64(kills) / float64(n)
}

// TestTiedFalseKillsPerMutant: on heavily tied timings, one mutant's
// false-kill rate over fresh data, its ID and -seed fixed, is within
// [0.8 alpha, alpha] (to three standard errors) for each of ten IDs. The
// tie-break mixes the values into its draws; drawn from the position
// alone, a fixed ID ordered every tie of two positions alike over all data,
// and the rates of these IDs ranged from 0.021 to 0.104.
func TestTiedFalseKillsPerMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const campaigns = 1500
	alpha := DefaultAlpha
	se := math.Sqrt(alpha * (1 - alpha) / campaigns)
	for i := range 10 {
		id := fmt.Sprintf("%012x/opt", 0x08b0c0e01f76+i)
		rate := tiedKillRate("BenchmarkGet", id, campaigns)
		t.Logf("%s: false-kill rate %.4f", id, rate)
		if rate < 0.8*alpha-3*se || rate > alpha+3*se {
			t.Errorf("mutant %s: false-kill rate %.4f over %d campaigns of fresh tied data, want within [0.8 alpha, alpha] +- 3 se = [%.4f, %.4f]", id, rate, campaigns, 0.8*alpha-3*se, alpha+3*se)
		}
	}
}
