package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/perfmut/perfmut/score"
)

// A scenario is what one simulated campaign measures: tests independent
// benchmarks (sec/op each), values drawn by draw.
type scenario struct {
	tests int
	draw  func(rng *rand.Rand, baseline bool) float64
}

// lognormal is continuous timing noise of sd sigma (on the log scale),
// the mutant slowed by shift.
func lognormal(sigma, shift float64) scenario {
	return scenario{1, func(rng *rand.Rand, baseline bool) float64 {
		v := 1e-6 * math.Exp(sigma*rng.NormFloat64())
		if !baseline {
			v *= shift
		}
		return v
	}}
}

// integerNs is the same noise on a benchmark of about 100 ns/op reported
// in whole nanoseconds, as go test prints fast benchmarks: heavy ties.
func integerNs(sigma, shift float64) scenario {
	return scenario{1, func(rng *rand.Rand, baseline bool) float64 {
		v := 100 * math.Exp(sigma*rng.NormFloat64())
		if !baseline {
			v *= shift
		}
		return math.Round(v)
	}}
}

func (s scenario) times(n int) scenario { s.tests = n; return s }

// simulate runs runs campaigns of sc under r, calling the rule at its
// looks as the runner does (between looks it always says continue), and
// returns the fraction killed and the mean number of samples each.
func simulate(r score.Rule, sc scenario, runs int, seed uint64) (kill, meanN float64) {
	killed := make([]bool, runs)
	ns := make([]int, runs)
	forEach(runs, func(c int) {
		rng := rand.New(rand.NewPCG(seed, uint64(c)))
		samples := make([]score.Sample, sc.tests)
		for i := range samples {
			samples[i] = score.Sample{Benchmark: fmt.Sprintf("Benchmark%d", i), Metric: score.SecPerOp}
		}
		v, n := untilDecided(r, samples, func(_ int, baseline bool) float64 { return sc.draw(rng, baseline) })
		killed[c], ns[c] = v.Decision == score.Kill, n
	})
	return killRate(killed, ns)
}

// A variant is a column: a rule and its name.
type variant struct {
	name string
	rule score.Rule
}

func variants(tests ...score.Test) []variant {
	var vs []variant
	for _, t := range tests {
		vs = append(vs,
			variant{fmt.Sprintf("%s default", t), score.Rule{Test: t}},
			variant{fmt.Sprintf("%s no futility", t), score.Rule{Test: t, FutilityPower: score.NoFutility}},
			variant{fmt.Sprintf("%s fixed n=30", t), score.Rule{Test: t, MinSamples: 30, MaxSamples: 30}},
		)
	}
	return vs
}

// aaData are the A/A tables' rows.
var aaData = []struct {
	name string
	sc   scenario
}{
	{"continuous (lognormal, sigma 0.05)", lognormal(0.05, 1)},
	{"tied (integer ns/op, about 100, sigma 0.05)", integerNs(0.05, 1)},
}

// familyRates prints the family-wise false-kill rates of the default
// rules with 5 times runs campaigns a cell (half that for 10 tests) and
// their 95% Wilson intervals.
func familyRates(w io.Writer, runs int, ksOnly bool) {
	fmt.Fprintf(w, "## Family-wise false-kill rate of the default rules under H0, %d campaigns a cell (%d for 10 tests); rate [95%% interval] (mean samples)\n\n", 5*runs, 5*runs/2)
	vs := only([]variant{{"ks default", score.Rule{}}, {"mwu default", score.Rule{Test: score.MWU}}}, ksOnly)
	header(w, "data, tests", vs)
	for _, data := range aaData {
		for _, k := range []int{1, 3, 10} {
			n := 5 * runs
			if k == 10 {
				n /= 2
			}
			fmt.Fprintf(w, "| %s, %d |", data.name, k)
			for _, v := range vs {
				rate, mean := simulate(v.rule, data.sc.times(k), n, 5)
				lo, hi := wilson(rate, n)
				fmt.Fprintf(w, " %.4f [%.4f, %.4f] (%.1f) |", rate, lo, hi, mean)
			}
			fmt.Fprintln(w)
		}
	}
}

// wilson is the 95% Wilson score interval of a rate observed in n trials.
func wilson(rate float64, n int) (lo, hi float64) {
	const z = 1.959963984540054
	nf := float64(n)
	mid := (rate + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(rate*(1-rate)/nf+z*z/(4*nf*nf))
	return max(mid-half, 0), min(mid+half, 1)
}

// only returns vs, or with ksOnly its KS columns.
func only(vs []variant, ksOnly bool) []variant {
	if !ksOnly {
		return vs
	}
	var out []variant
	for _, v := range vs {
		if v.rule.Test == "" || v.rule.Test == score.KS {
			out = append(out, v)
		}
	}
	return out
}

// tables prints the tables of docs/statistics.md, with ksOnly only their
// KS columns.
func tables(w io.Writer, runs int, ksOnly bool) error {
	start := time.Now()
	familyRates(w, runs, ksOnly)
	fmt.Fprintf(w, "\n## False kills under H0 (A/A) without the futility stop and the minimum effect, %d campaigns a cell (%d for 10 tests); rate (mean samples)\n\n", runs, runs/2)
	aa := only([]variant{
		{"ks, min effect 1, no futility", score.Rule{MinEffect: 1, FutilityPower: score.NoFutility}},
		{"mwu, min effect 1, no futility", score.Rule{Test: score.MWU, MinEffect: 1, FutilityPower: score.NoFutility}},
	}, ksOnly)
	header(w, "data, tests", aa)
	for _, data := range aaData {
		for _, k := range []int{1, 3, 10} {
			n := runs
			if k == 10 {
				n = runs / 2
			}
			row(w, fmt.Sprintf("%s, %d", data.name, k), aa, data.sc.times(k), n, 1)
		}
	}

	fmt.Fprintf(w, "\n## Power, one benchmark, %d campaigns a cell; kill rate (mean samples)\n\n", runs)
	pv := only(variants(score.KS, score.MWU), ksOnly)
	header(w, "noise sigma, shift", pv)
	for _, c := range []struct{ sigma, shift float64 }{{0.05, 1.05}, {0.05, 1.10}, {0.2, 1.10}, {0.01, 1.03}} {
		row(w, fmt.Sprintf("%g, %g (lognormal)", c.sigma, c.shift), pv, lognormal(c.sigma, c.shift), runs, 2)
	}
	row(w, "0.05, 1.05 (integer ns/op)", pv, integerNs(0.05, 1.05), runs, 2)

	fmt.Fprintf(w, "\n## Below the minimum effect: a 0.5%% slowdown on a quiet machine (sigma 0.002), %d campaigns a cell\n\n", runs)
	me := only([]variant{
		{"ks default", score.Rule{}},
		{"mwu default", score.Rule{Test: score.MWU}},
		{"ks, min effect 1", score.Rule{MinEffect: 1}},
		{"mwu, min effect 1", score.Rule{Test: score.MWU, MinEffect: 1}},
	}, ksOnly)
	header(w, "noise sigma, shift", me)
	row(w, "0.002, 1.005", me, lognormal(0.002, 1.005), runs, 3)
	row(w, "0.002, 1.02", me, lognormal(0.002, 1.02), runs, 3)
	fmt.Fprintf(w, "\n(%.0fs)\n", time.Since(start).Seconds())
	return nil
}

func header(w io.Writer, first string, vs []variant) {
	fmt.Fprintf(w, "| %s |", first)
	for _, v := range vs {
		fmt.Fprintf(w, " %s |", v.name)
	}
	fmt.Fprintf(w, "\n| --- |")
	for range vs {
		fmt.Fprintf(w, " --- |")
	}
	fmt.Fprintln(w)
}

func row(w io.Writer, name string, vs []variant, sc scenario, runs int, seed uint64) {
	fmt.Fprintf(w, "| %s |", name)
	for _, v := range vs {
		k, n := simulate(v.rule, sc, runs, seed)
		fmt.Fprintf(w, " %.3f (%.1f) |", k, n)
	}
	fmt.Fprintln(w)
}
