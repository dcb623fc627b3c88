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

// tiedKillRate is the false-kill rate of the default rule over mutants
// (ids m0 ... m{n-1}, each with its own A/A data) of one benchmark name
// with heavily tied times (about 100 ns/op in whole nanoseconds with
// sigma 0.01: five values), with -seed 1 and no minimum effect (a 1 ns
// difference of medians is above 1.01: the minimum effect would veto most
// kills and hide the tie-breaking); perMutant mixes each mutant's
// id into the seed as the runner does, else every mutant shares it.
func tiedKillRate(name string, n int, perMutant bool) float64 {
	kills := 0
	for m := range n {
		rng := rand.New(rand.NewPCG(41, uint64(m)))
		r := Rule{Seed: 1, MinEffect: 1}
		if perMutant {
			r = r.ForMutant(fmt.Sprintf("m%d/opt", m))
		}
		draw := func(bool, int) float64 { return math.Round(100 * math.Exp(0.01*rng.NormFloat64())) }
		if v, _ := run(r, []string{name}, nil, draw); v.Decision == Kill {
			kills++
		}
	}
	return float64(kills) / float64(n)
}

// TestTiedFalseKillsPerBenchmark: on heavily tied timings, the false-kill
// rate over the mutants of one benchmark with a fixed -seed is at most
// alpha for every benchmark name (to three standard errors: six names),
// now that the tie-breaking is seeded per mutant. Seeded per benchmark
// only (every mutant of it breaking ties alike), the rates of the same
// names spread far beyond (from near 0 to several times alpha).
func TestTiedFalseKillsPerBenchmark(t *testing.T) {
	const mutants = 1500
	alpha := DefaultAlpha
	se := math.Sqrt(alpha * (1 - alpha) / mutants)
	spread := 0.0
	for _, name := range []string{"BenchmarkGet", "BenchmarkPut", "BenchmarkJoinLower", "BenchmarkChecksum", "BenchmarkA", "BenchmarkParse/small"} {
		rate, shared := tiedKillRate(name, mutants, true), tiedKillRate(name, mutants, false)
		t.Logf("%s: false-kill rate %.4f seeded per mutant, %.4f per benchmark", name, rate, shared)
		if rate > alpha+3*se {
			t.Errorf("%s: false-kill rate %.4f over %d mutants with -seed 1, want at most alpha + 3 se = %.4f", name, rate, mutants, alpha+3*se)
		}
		spread = max(spread, math.Abs(shared-alpha))
	}
	if spread < 5*se {
		t.Errorf("seeded per benchmark, every name's rate is within %.4f of alpha: the test cannot tell the seeding apart", spread)
	}
}
