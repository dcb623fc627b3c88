package score

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
)

// TestSurvivorCrossingExact: the chance that a benchmark whose median
// per-round ratio is the margin survives. Checked afresh at every look, the
// unspent 95% bound (ranks 1, 2, 6, 11 at 5, 10, 20, 30) clears with
// probability 0.0815; the ranks 1, 1, 5, 9 with 0.0400 (the figures of an
// independent audit); the rule's ranks spend at most 0.05. A simulation of
// the sign walks agrees with the exact count.
func TestSurvivorCrossingExact(t *testing.T) {
	looks := []int{5, 10, 20, 30}
	for _, tt := range []struct {
		ks   []int
		want float64
	}{{[]int{1, 2, 6, 11}, 0.08147252630442381}, {[]int{1, 1, 5, 9}, 0.03995697759091854}} {
		if got := survivorCrossing(looks, tt.ks); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("survivorCrossing(%v, %v) = %v, want %v", looks, tt.ks, got, tt.want)
		}
	}
	for _, r := range []Rule{{}, {Alpha: 0.01}, {Alpha: 0.1}, {MaxSamples: 60}, {MaxSamples: 10}, {MinSamples: 30}} {
		r = r.WithDefaults()
		ks := r.survivorRanks()
		if c := survivorCrossing(r.Looks(), ks); c > 0.05 {
			t.Errorf("looks %v: ranks %v survive at the margin with probability %v, above 0.05", r.Looks(), ks, c)
		}
	}
	if ks := DefaultRule().survivorRanks(); fmt.Sprint(ks) != "[1 2 5 9]" {
		t.Errorf("default ranks %v, want [1 2 5 9]", ks)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	ks, hits, walks := []int{1, 2, 5, 9}, 0, 200000
	for range walks {
		above, n := 0, 0
		for j, nk := range looks {
			for ; n < nk; n++ {
				above += int(rng.Uint64() & 1)
			}
			if above < ks[j] {
				hits++
				break
			}
		}
	}
	exact := survivorCrossing(looks, ks)
	if got, se := float64(hits)/float64(walks), math.Sqrt(exact*(1-exact)/float64(walks)); math.Abs(got-exact) > 4*se {
		t.Errorf("simulated sign walks cross at %v, the exact count says %v (se %v)", got, exact, se)
	}
}

// TestSurvivedAtMargin: a mutant one of whose benchmarks is slower by
// exactly the margin (x1.05) survives with probability at most 0.05 under
// the default rule, for moderate and noisy benchmarks (sigma 0.05 to 0.3),
// continuous times and times on a 20 ns grid (400 ns: a per-round ratio of
// 420/400 is the margin exactly, which a bound equal to it must not rule
// out), beside 0 and 2 benchmarks without effect with their counts. The
// bound is the exact crossing 0.0438 plus three standard errors. Before,
// the bound was checked afresh at every look with a comparison of at most
// the margin: 0.068 to 0.085 on continuous data and 0.15 on the grid.
// The large simulation is bench/simrule -survivors (docs/statistics.md).
func TestSurvivedAtMargin(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const campaigns = 1000
	r := DefaultRule()
	exact := survivorCrossing(r.Looks(), r.survivorRanks())
	bound := exact + 3*math.Sqrt(exact*(1-exact)/campaigns)
	for _, tt := range []struct {
		sigma  float64
		grid   bool
		others int
	}{{0.05, false, 0}, {0.05, true, 0}, {0.1, false, 0}, {0.1, true, 0}, {0.1, false, 2}, {0.3, false, 0}, {0.3, true, 2}} {
		rate := survivedAtMargin(r, campaigns, tt.sigma, tt.grid, tt.others)
		t.Logf("sigma %v, grid %v, %d other benchmarks: survived %.4f (bound %.4f)", tt.sigma, tt.grid, tt.others, rate, bound)
		if rate > bound {
			t.Errorf("sigma %v, grid %v, %d other benchmarks: %.4f of mutants slower by the margin survived, want at most %.4f", tt.sigma, tt.grid, tt.others, rate, bound)
		}
	}
}

// survivedAtMargin is the share of campaigns survived by mutants whose
// first benchmark is slower by the margin (sec/op, lognormal noise sigma
// on 400 ns, rounded to 20 ns on a grid) and whose others benchmarks have
// no effect (sec/op and a constant allocs/op each).
func survivedAtMargin(r Rule, campaigns int, sigma float64, grid bool, others int) float64 {
	names, metrics := []string{"BenchmarkSlow"}, []string{SecPerOp}
	for b := range others {
		for _, m := range []string{SecPerOp, AllocsPerOp} {
			names, metrics = append(names, fmt.Sprintf("Benchmark%c", 'A'+b)), append(metrics, m)
		}
	}
	survived := make([]bool, campaigns)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for c := w; c < campaigns; c += workers {
				rng := rand.New(rand.NewPCG(17, uint64(c)))
				draw := func(baseline bool, i int) float64 {
					if metrics[i] == AllocsPerOp {
						return 3
					}
					v := 400 * math.Exp(sigma*rng.NormFloat64())
					if !baseline && i == 0 {
						v *= r.Margin
					}
					if grid {
						v = 20 * math.Round(v/20)
					}
					return v
				}
				v, _ := runAtLooks(r.ForMutant(fmt.Sprint(c)), names, metrics, draw)
				survived[c] = v.Decision == Survive
			}
		})
	}
	wg.Wait()
	n := 0
	for _, s := range survived {
		if s {
			n++
		}
	}
	return float64(n) / float64(campaigns)
}

// TestUpperNotBelowRatio: a recorded upper bound is never below the
// test's own median ratio (a report once showed ratio 1.189 with
// ratio_upper 1.175: the rank bound of the per-round ratios and the ratio
// of the medians are different statistics). Ten rounds, the bound the
// second largest per-round ratio: nine rounds have a ratio of 1 and one
// of 100, which moves the mutant's median from 5.5 to 6.5 (x1.18). The
// rank bound alone (1) would rule out x1.05 and survive the mutant.
func TestUpperNotBelowRatio(t *testing.T) {
	r := Rule{MaxSamples: 10}.WithDefaults()
	s := Sample{Benchmark: "BenchmarkA", Metric: SecPerOp,
		Baseline: []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		Mutant:   []float64{100, 2, 3, 4, 5, 6, 7, 8, 9, 10}}
	if k := r.survivorRanks()[1]; UpperRatio(s.Baseline, s.Mutant, k) != 1 {
		t.Fatalf("rank %d bound %v, want 1 (the case must tell)", k, UpperRatio(s.Baseline, s.Mutant, k))
	}
	v := r.DecideWithoutIntervals([]Sample{s})
	tr := v.Tests[0]
	if v.Decision != Abstain || !(tr.Upper >= tr.Ratio) || math.Abs(tr.Ratio-6.5/5.5) > 1e-12 {
		t.Errorf("%s with ratio %v and upper bound %v; want undecided with the bound at least the ratio 6.5/5.5", v.Decision, tr.Ratio, tr.Upper)
	}
}

// TestUpperString: a bound is printed rounded up, and with more digits
// where three would print a bound below the margin as the margin.
func TestUpperString(t *testing.T) {
	for _, tt := range []struct {
		x, m float64
		want string
	}{
		{1.0421, 1.05, "1.043"},
		{1.0499, 1.05, "1.0499"},
		{1.04999, 1.05, "1.04999"},
		{1.05, 1.05, "1.050"},
		{1.3999, 1.05, "1.400"},
		{1.0000000001, 1.05, "1.001"},
	} {
		if got := UpperString(tt.x, tt.m); got != tt.want {
			t.Errorf("UpperString(%v, %v) = %q, want %q", tt.x, tt.m, got, tt.want)
		}
	}
}

// runAtLooks is run calling the rule at its looks only (between looks it
// says Continue): the same verdicts, at a fraction of the cost.
func runAtLooks(r Rule, names, metrics []string, draw func(baseline bool, test int) float64) (Verdict, int) {
	samples := make([]Sample, len(names))
	for i, name := range names {
		samples[i] = Sample{Benchmark: name, Metric: metrics[i]}
	}
	var v Verdict
	n := 0
	for _, n = range r.WithDefaults().Looks() {
		for i := range samples {
			for len(samples[i].Baseline) < n {
				samples[i].Baseline = append(samples[i].Baseline, draw(true, i))
				samples[i].Mutant = append(samples[i].Mutant, draw(false, i))
			}
		}
		if v = r.decide(samples, false); v.Decision != Continue {
			break
		}
	}
	return v, n
}
