package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/perfmut/perfmut/score"
)

// A metricSpec is one test of a simulated mutant: a benchmark's metric
// and how its values are drawn under the null (the same for both sides).
type metricSpec struct {
	bench, metric string
	draw          func(rng *rand.Rand) float64
}

// Null draws of the family-wise table: time is continuous (lognormal,
// sigma 0.05); the counts are two-valued, as a per-op average that
// wobbles by a byte or an allocation now and then.
func timeDraw(rng *rand.Rand) float64 { return 1e-6 * math.Exp(0.05*rng.NormFloat64()) }

// twoValued draws base, or base+1 with probability p.
func twoValued(base, p float64) func(*rand.Rand) float64 {
	return func(rng *rand.Rand) float64 {
		if rng.Float64() < p {
			return base + 1
		}
		return base
	}
}

// A familyCase is a row of the family-wise table: a mutant's tests.
type familyCase struct {
	name  string
	tests []metricSpec
}

// mixedFamily is benches benchmarks of sec/op, a two-valued B/op (the
// larger value with probability pBytes) and a two-valued allocs/op (pAllocs;
// 0 makes it constant).
func mixedFamily(benches int, pBytes, pAllocs float64) []metricSpec {
	var ts []metricSpec
	for b := range benches {
		name := fmt.Sprintf("Benchmark%c", 'A'+b)
		ts = append(ts,
			metricSpec{name, score.SecPerOp, timeDraw},
			metricSpec{name, score.BytesPerOp, twoValued(2337, pBytes)},
			metricSpec{name, score.AllocsPerOp, twoValued(181, pAllocs)})
	}
	return ts
}

// tiedDraw is timing noise of sigma 0.05 on about 100 ns/op in whole
// nanoseconds: heavy ties.
func tiedDraw(rng *rand.Rand) float64 { return math.Round(100 * math.Exp(0.05*rng.NormFloat64())) }

// tiedFamily is benches benchmarks of tied sec/op, B/op two-valued at 50%
// and allocs/op at 30%.
func tiedFamily(benches int) []metricSpec {
	ts := mixedFamily(benches, 0.5, 0.3)
	for i := range ts {
		if ts[i].metric == score.SecPerOp {
			ts[i].draw = tiedDraw
		}
	}
	return ts
}

// continuousBytes is benches benchmarks of sec/op, a B/op that varies
// continuously (2337 with a lognormal spread of 1%) and allocs/op at 10%.
func continuousBytes(benches int) []metricSpec {
	ts := mixedFamily(benches, 0, 0.1)
	for i := range ts {
		if ts[i].metric == score.BytesPerOp {
			ts[i].draw = func(rng *rand.Rand) float64 { return 2337 * math.Exp(0.01*rng.NormFloat64()) }
		}
	}
	return ts
}

// familyCases are the rows: 1 to 5 benchmarks of sec/op + B/op +
// allocs/op, with B/op two-valued at 30% (its smallest p-value at the
// first look is mostly above that look's level: under the rule that
// recomputed the family at each look it joined at the second or a later
// one) and allocs/op two-valued at 10% or constant; and the audit's 8
// sec/op + 4 such B/op.
func familyCases() []familyCase {
	var cs []familyCase
	for b := 1; b <= 5; b++ {
		cs = append(cs, familyCase{fmt.Sprintf("%d x (sec/op, B/op 30%%, allocs/op 10%%)", b), mixedFamily(b, 0.3, 0.1)})
	}
	for _, b := range []int{1, 3, 5} {
		cs = append(cs, familyCase{fmt.Sprintf("%d x (sec/op, B/op 30%%, allocs/op constant)", b), mixedFamily(b, 0.3, 0)})
	}
	// Tied timings (integer ns/op, about 100) with counts that are often
	// split 5/5 at the first look (B/op 50%: a quarter of the time) or
	// vary more (allocs/op 30%), and B/op that is continuous (an average
	// over b.N that is not a whole number): every count reaches 1/252 at
	// the first look.
	for _, b := range []int{1, 3} {
		cs = append(cs, familyCase{fmt.Sprintf("%d x (tied sec/op, B/op 50%%, allocs/op 30%%)", b), tiedFamily(b)})
	}
	for _, b := range []int{1, 2, 5} {
		cs = append(cs, familyCase{fmt.Sprintf("%d x (sec/op, continuous B/op, allocs/op 10%%)", b), continuousBytes(b)})
	}
	// Many benchmarks whose counts are two-valued at 50%: each is constant
	// on each side and larger on the mutant's at the first look with
	// probability 2^-10, a deterministic increase that kills whatever the
	// look's level; the family's levels shrink with its size, that
	// chance does not.
	for _, b := range []int{5, 10, 20} {
		cs = append(cs, familyCase{fmt.Sprintf("%d x (sec/op, B/op 50%%, allocs/op 50%%)", b), mixedFamily(b, 0.5, 0.5)})
	}
	var audit []metricSpec
	for b := range 8 {
		name := fmt.Sprintf("Benchmark%c", 'A'+b)
		audit = append(audit, metricSpec{name, score.SecPerOp, timeDraw})
		if b < 4 {
			audit = append(audit, metricSpec{name, score.BytesPerOp, twoValued(2337, 0.3)})
		}
	}
	return append(cs, familyCase{"8 sec/op + 4 B/op 30%", audit})
}

// simulateFamily runs runs A/A campaigns of the tests under r, calling the
// rule at its looks, and returns the fraction killed and the mean number
// of samples. Campaign c draws from its own generator (seed, c); the rule's
// seed is mixed with the campaign (Rule.ForMutant), as the runner mixes a
// mutant's identity into it.
func simulateFamily(r score.Rule, tests []metricSpec, runs int, seed uint64) (kill, meanN float64) {
	return simulateAs(r, tests, runs, seed, func(c int) string { return fmt.Sprint(c) })
}

// simulateAs is simulateFamily with campaign c's mutant identity id(c).
func simulateAs(r score.Rule, tests []metricSpec, runs int, seed uint64, id func(int) string) (kill, meanN float64) {
	killed := make([]bool, runs)
	ns := make([]int, runs)
	forEach(runs, func(c int) {
		rng := rand.New(rand.NewPCG(seed, uint64(c)))
		samples := make([]score.Sample, len(tests))
		for i, t := range tests {
			samples[i] = score.Sample{Benchmark: t.bench, Metric: t.metric}
		}
		v, n := untilDecided(r.ForMutant(id(c)), samples, func(i int, _ bool) float64 { return tests[i].draw(rng) })
		killed[c], ns[c] = v.Decision == score.Kill, n
	})
	return killRate(killed, ns)
}

// familyTable prints the family-wise false-kill rates of the default rule
// on mixed families, runs campaigns a row, with 95% Wilson intervals: the
// rows whose name contains only (all with "").
func familyTable(w io.Writer, runs int, only string) {
	fmt.Fprintf(w, "## Family-wise false-kill rate of the default rule (ks, alpha 0.05) on mixed families under H0, %d campaigns a row; rate [95%% interval] (mean samples)\n\n", runs)
	vs := []variant{{"ks default", score.Rule{}}, {"ks, no margin", score.Rule{Margin: score.NoMargin}}}
	header(w, "tests", vs)
	for _, c := range familyCases() {
		if !strings.Contains(c.name, only) {
			continue
		}
		fmt.Fprintf(w, "| %s |", c.name)
		for _, v := range vs {
			rate, mean := simulateFamily(v.rule, c.tests, runs, 23)
			lo, hi := wilson(rate, runs)
			fmt.Fprintf(w, " %.4f [%.4f, %.4f] (%.1f) |", rate, lo, hi, mean)
		}
		fmt.Fprintln(w)
	}
}

// tiedNames and tiedSeeds are the benchmark names and rule seeds (-seed)
// of the tied table.
var (
	tiedNames = []string{"BenchmarkA", "BenchmarkJoinLower", "BenchmarkParse/size=64-2"}
	tiedSeeds = []int64{0, 1, 42}
)

// tiedTable prints the false-kill rate of one benchmark of tied sec/op,
// B/op two-valued at 50% and allocs/op at 30% (tiedFamily), for each
// benchmark name and rule seed of tiedNames and tiedSeeds: the ties are
// broken from the rule's seed mixed with the mutant (Rule.ForMutant), the
// benchmark and the metric, so no name or seed may spend more than alpha.
func tiedTable(w io.Writer, runs int) {
	fmt.Fprintf(w, "## False-kill rate of one benchmark of tied sec/op (B/op 50%%, allocs/op 30%%) by benchmark name and rule seed, default rule, %d campaigns a cell; rate [95%% interval]\n\n", runs)
	fmt.Fprintf(w, "| benchmark |")
	for _, seed := range tiedSeeds {
		fmt.Fprintf(w, " -seed %d |", seed)
	}
	fmt.Fprintf(w, "\n| --- |%s\n", strings.Repeat(" --- |", len(tiedSeeds)))
	for _, name := range tiedNames {
		tests := tiedFamily(1)
		for i := range tests {
			tests[i].bench = name
		}
		fmt.Fprintf(w, "| %s |", name)
		for _, seed := range tiedSeeds {
			rate, _ := simulateFamily(score.Rule{Seed: seed}, tests, runs, 23)
			lo, hi := wilson(rate, runs)
			fmt.Fprintf(w, " %.4f [%.4f, %.4f] |", rate, lo, hi)
		}
		fmt.Fprintln(w)
	}
}

// tiedIDs is how many fixed mutant identities tiedIDTable simulates.
const tiedIDs = 10

// tiedIDTable prints, for each of tiedIDs fixed mutant identities (an ID
// and level as the runner mixes them into the rule's seed, e.g.
// "3f6c7cc52183/opt") at the default -seed 1, the false-kill rate of one
// benchmark of tied sec/op, B/op two-valued at 50% and allocs/op at 30%
// (tiedFamily) over runs campaigns of fresh data: the tie-break jitter
// mixes the values in, so one mutant's rate is alpha's share, not a draw
// fixed by its identity (0.021 to 0.104 over 12 IDs before).
func tiedIDTable(w io.Writer, runs int) {
	fmt.Fprintf(w, "## False-kill rate per fixed mutant ID (-seed 1) of one benchmark of tied sec/op (B/op 50%%, allocs/op 30%%), default rule, %d campaigns of fresh data an ID; rate [95%% interval]\n\n", runs)
	fmt.Fprintln(w, "| mutant ID | rate | mean samples |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	tests := tiedFamily(1)
	for i := range tiedIDs {
		sum := sha256.Sum256(fmt.Appendf(nil, "mutant %d", i))
		id := fmt.Sprintf("%x/opt", sum[:6]) // a 12-hex-digit ID, as perfmut's
		rate, mean := simulateAs(score.Rule{Seed: 1}, tests, runs, 29, func(int) string { return id })
		lo, hi := wilson(rate, runs)
		fmt.Fprintf(w, "| %s | %.4f [%.4f, %.4f] | %.1f |\n", id, rate, lo, hi, mean)
	}
}
