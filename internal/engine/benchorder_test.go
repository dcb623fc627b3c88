package engine

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/score"
)

// fixedRule is an uncalibrated rule whose levels do not move with the
// calibration: alpha 0.04 spends 0.02/K on each of K tests at the first
// look (5 samples), so a clear kill (p = 1/252) rejects in a family of at
// most 5 tests: one benchmark with three metrics and one more pending.
var fixedRule = score.Rule{Alpha: 0.04}

// orderCosts is a benchCosts for tests: a round costs twice the sample's
// wall time, and the benchmarks named in conc are concurrent.
func orderCosts(heat map[Benchmark]BenchHeat, its map[Benchmark]BenchIters, conc ...string) benchCosts {
	return benchCosts{heat: heat, its: its, rule: fixedRule, metric: DefaultMetric, procs: 2,
		round: func(it BenchIters) time.Duration { return 2 * it.Wall },
		concurrent: func(b Benchmark) bool {
			for _, n := range conc {
				if b.Name == n {
					return true
				}
			}
			return false
		}}
}

// TestChooseBenchmarksOrder: benchmarks go by rate (site executions per
// second of baseline time) per second of a round, so a benchmark of half
// the rate and less than half the cost comes first; without heat, the
// cheaper round first. No benchmark is left out for an operator that is
// not inert.
func TestChooseBenchmarksOrder(t *testing.T) {
	ms := time.Millisecond
	a, b, c := Benchmark{Pkg: "p", Name: "BenchmarkA"}, Benchmark{Pkg: "p", Name: "BenchmarkB"}, Benchmark{Pkg: "p", Name: "BenchmarkC", CPU: 2}
	its := map[Benchmark]BenchIters{
		a: {Wall: 30 * ms, SecPerOp: 1e-6},
		b: {Wall: 20 * ms, SecPerOp: 1e-7},
		c: {Wall: 8 * ms, SecPerOp: 1e-6},
	}
	heat := map[Benchmark]BenchHeat{{Pkg: "p", Name: "BenchmarkA"}: {PerIter: 10}, {Pkg: "p", Name: "BenchmarkB"}: {PerIter: 2}, {Pkg: "p", Name: "BenchmarkC"}: {PerIter: 10}}
	// Rates: A 1e7, B 2e7, C 1e7 (heat of CPU 0); per second of a round:
	// A 1e7/0.06, B 2e7/0.04 = 5e8, C 1e7/0.016 = 6.25e8.
	ch := chooseBenchmarks([]Benchmark{a, b, c}, operators.Oblivion, orderCosts(heat, its))
	if got := fmt.Sprint(ch.order, ch.dominated, ch.beyond); got != "[BenchmarkC BenchmarkB BenchmarkA] [] []" {
		t.Errorf("order, dominated, beyond = %s, want [BenchmarkC BenchmarkB BenchmarkA] [] []", got)
	}
	ch = chooseBenchmarks([]Benchmark{a, b, c}, operators.Oblivion, orderCosts(nil, its))
	if got := fmt.Sprint(ch.order); got != "[BenchmarkC BenchmarkB BenchmarkA]" {
		t.Errorf("order without heat = %s, want [BenchmarkC BenchmarkB BenchmarkA]", got)
	}
	ch = chooseBenchmarks([]Benchmark{a, b}, nil, orderCosts(heat, map[Benchmark]BenchIters{a: {Wall: 10 * ms, SecPerOp: 1e-6}, b: {Wall: 10 * ms, SecPerOp: 1e-7}}))
	if got := fmt.Sprint(ch.order); got != "[BenchmarkB BenchmarkA]" {
		t.Errorf("order at equal cost = %s, want [BenchmarkB BenchmarkA] (the higher rate first)", got)
	}
}

// units are the metrics of a benchmark that reports allocations.
var units = []string{"sec/op", "B/op", "allocs/op"}

// TestChooseBenchmarksFamily: of five sequential benchmarks of about the
// same rate (within dominanceFactor, like one function's sub-benchmarks
// for five inputs), an inert operator's mutant is measured on the two
// best by rate per second of a round: with fixedRule a third one's three
// tests in the family would keep a clear kill on the first from being
// decided at the first look until every one was measured. The default
// rule's count is DecideAhead's too.
func TestChooseBenchmarksFamily(t *testing.T) {
	ms := time.Millisecond
	var bs []Benchmark
	its := map[Benchmark]BenchIters{}
	heat := map[Benchmark]BenchHeat{}
	for i, rate := range []float64{1.0e7, 1.8e7, 1.2e7, 1.5e7, 0.95e7} {
		b := Benchmark{Pkg: "p", Name: fmt.Sprintf("BenchmarkParse/%d", i)}
		bs = append(bs, b)
		its[b] = BenchIters{Wall: 20 * ms, SecPerOp: 1e-6, Units: units}
		heat[b] = BenchHeat{PerIter: rate * 1e-6}
	}
	ch := chooseBenchmarks(bs, operators.SpinLoop, orderCosts(heat, its))
	if got := fmt.Sprint(ch.order, ch.dominated, ch.beyond); got != "[BenchmarkParse/1 BenchmarkParse/3] [] [BenchmarkParse/2 BenchmarkParse/0 BenchmarkParse/4]" {
		t.Errorf("order, dominated, beyond = %s", got)
	}
	want := "not measured on BenchmarkParse/2, BenchmarkParse/0, BenchmarkParse/4: with them in the family a clear kill on BenchmarkParse/1 could not be decided before every benchmark was measured"
	if got := ch.note(displayNames(bs)); got != want {
		t.Errorf("note = %q, want %q", got, want)
	}
	// Without allocation metrics a pending benchmark is one test: the
	// first can kill alone with four of them pending.
	for _, b := range bs {
		it := its[b]
		it.Units = []string{"sec/op"}
		its[b] = it
	}
	ch = chooseBenchmarks(bs, operators.SpinLoop, orderCosts(heat, its))
	if len(ch.order) != 5 || len(ch.beyond) != 0 {
		t.Errorf("sec/op only: order %v, beyond %v, want all five measured", ch.order, ch.beyond)
	}
	for _, b := range bs {
		it := its[b]
		it.Units = units
		its[b] = it
	}
	bc := orderCosts(heat, its)
	bc.rule = score.Rule{}.WithDefaults()
	ch = chooseBenchmarks(bs, operators.SpinLoop, bc)
	for k := 1; k <= len(bs); k++ {
		pending := ch.order[1:min(k, len(ch.order))]
		if k > len(ch.order) {
			pending = append(slices.Clone(ch.order[1:]), ch.beyond[0])
		}
		if want := k <= len(ch.order); bc.killsAlone(ch.order[0], pending) != want {
			t.Errorf("default rule: %d kept, but with %d benchmarks killsAlone = %v", len(ch.order), k, !want)
		}
	}
}

// TestChooseBenchmarksDominance: for an inert operator, a benchmark whose
// sensitivity is known and below half the highest is left out (D; E, a
// concurrent benchmark, by its rate halved for GOMAXPROCS 2); one at
// exactly half (A) is kept; one whose rate is unknown (F) comes last and
// is beyond the family. For an operator whose cost grows with contention
// the concurrent benchmark comes first, whatever its rate, and is compared
// only with concurrent ones; for a tail operator a benchmark reporting a
// tested custom metric is kept. A non-inert operator's mutants keep every
// benchmark.
func TestChooseBenchmarksDominance(t *testing.T) {
	ms := time.Millisecond
	bench := func(n string) Benchmark { return Benchmark{Pkg: "p", Name: n} }
	a, b, d, e, f := bench("BenchmarkA"), bench("BenchmarkB"), bench("BenchmarkD"), bench("BenchmarkE"), bench("BenchmarkF")
	its := map[Benchmark]BenchIters{
		a: {Wall: 10 * ms, SecPerOp: 1e-6, Units: units}, // rate 1e7
		b: {Wall: 10 * ms, SecPerOp: 1e-7, Units: units}, // rate 2e7
		d: {Wall: 10 * ms, SecPerOp: 1e-6, Units: units}, // rate 0.99e7
		e: {Wall: 10 * ms, SecPerOp: 1e-7, Units: units}, // rate 3e6, concurrent: 1.5e6
		f: {Wall: 10 * ms, SecPerOp: 1e-6, Units: units}, // no heat: unknown
	}
	heat := map[Benchmark]BenchHeat{a: {PerIter: 10}, b: {PerIter: 2}, d: {PerIter: 9.9}, e: {PerIter: 0.3}}
	all := []Benchmark{a, b, d, e, f}
	names := displayNames(all)
	for _, tc := range []struct {
		op         *mutate.Operator
		want, note string
	}{
		{operators.SpinLoop, "[BenchmarkB BenchmarkA] [BenchmarkD BenchmarkE] [BenchmarkB BenchmarkB] [BenchmarkF]",
			"not measured on BenchmarkD, BenchmarkE: they run the site less than 1/2 as often per second of CPU as BenchmarkB, so this injection, the same at every execution, slows them less than 1/2 as much; " +
				"not measured on BenchmarkF: with it in the family a clear kill on BenchmarkB could not be decided before every benchmark was measured"},
		{operators.LockContention, "[BenchmarkE BenchmarkB] [BenchmarkD] [BenchmarkB] [BenchmarkA BenchmarkF]",
			"not measured on BenchmarkD: it runs the site less than 1/2 as often per second of CPU as BenchmarkB, so this injection, the same at every execution, slows it less than 1/2 as much; " +
				"not measured on BenchmarkA, BenchmarkF: with them in the family a clear kill on BenchmarkE could not be decided before every benchmark was measured"},
	} {
		ch := chooseBenchmarks(all, tc.op, orderCosts(heat, its, "BenchmarkE"))
		if got := fmt.Sprint(ch.order, ch.dominated, ch.by, ch.beyond); got != tc.want {
			t.Errorf("%s: order, dominated, by, beyond = %s, want %s", tc.op.Name, got, tc.want)
		}
		if got := ch.note(names); got != tc.note {
			t.Errorf("%s: note = %q, want %q", tc.op.Name, got, tc.note)
		}
	}
	ch := chooseBenchmarks(all, operators.Oblivion, orderCosts(heat, its, "BenchmarkE"))
	if len(ch.dominated)+len(ch.beyond) != 0 || len(ch.order) != len(all) || ch.note(names) != "" {
		t.Errorf("oblivion: order %v, dominated %v, beyond %v, want every benchmark kept", ch.order, ch.dominated, ch.beyond)
	}
	// A tail operator is judged like spin-loop, except that a benchmark
	// reporting a tested custom metric (D: p99-ns/op) is kept.
	ch = chooseBenchmarks(all, operators.TailSpike, orderCosts(heat, its, "BenchmarkE"))
	if got := fmt.Sprint(ch.order, ch.dominated, ch.beyond); got != "[BenchmarkB BenchmarkA] [BenchmarkD BenchmarkE] [BenchmarkF]" {
		t.Errorf("tail-spike: order, dominated, beyond = %s", got)
	}
	it := its[d]
	it.Units = append(slices.Clone(units), "p99-ns/op")
	its[d] = it
	bc := orderCosts(heat, its, "BenchmarkE")
	bc.metric = func(u string) bool { return DefaultMetric(u) || u == "p99-ns/op" }
	ch = chooseBenchmarks(all, operators.TailSpike, bc)
	if got := fmt.Sprint(ch.order, ch.dominated, ch.beyond); got != "[BenchmarkB BenchmarkA BenchmarkD] [BenchmarkE] [BenchmarkF]" {
		t.Errorf("tail-spike with p99-ns/op on D: order, dominated, beyond = %s", got)
	}
}

// TestCandidates: an inert operator's mutant chooses from every benchmark
// that reaches it in a package whose mutant binary is built; another
// operator's is measured on the ones -max-benchmarks kept. limit keeps the
// first n of the order and puts the rest before the others beyond it.
func TestCandidates(t *testing.T) {
	a, b, c := Benchmark{Pkg: "p", Name: "BenchmarkA"}, Benchmark{Pkg: "p", Name: "BenchmarkB"}, Benchmark{Pkg: "q", Name: "BenchmarkC"}
	built := func(pkg string) bool { return pkg == "p" }
	if got := fmt.Sprint(candidates(operators.SpinLoop, []Benchmark{a}, []Benchmark{a, b, c}, built)); got != "[BenchmarkA BenchmarkB]" {
		t.Errorf("spin-loop: %s, want [BenchmarkA BenchmarkB]", got)
	}
	if got := fmt.Sprint(candidates(operators.Oblivion, []Benchmark{a}, []Benchmark{a, b, c}, built)); got != "[BenchmarkA]" {
		t.Errorf("oblivion: %s, want [BenchmarkA]", got)
	}
	if got := fmt.Sprint(candidates(nil, []Benchmark{a}, []Benchmark{a, b, c}, built)); got != "[BenchmarkA]" {
		t.Errorf("unknown operator: %s, want [BenchmarkA]", got)
	}
	ch := benchChoice{order: []Benchmark{a, b, c}, beyond: []Benchmark{{Pkg: "p", Name: "BenchmarkD"}}}
	ch.limit(2)
	if got := fmt.Sprint(ch.order, ch.beyond); got != "[BenchmarkA BenchmarkB] [BenchmarkC BenchmarkD]" {
		t.Errorf("limit(2): %s", got)
	}
	ch.limit(0)
	if len(ch.order) != 2 {
		t.Errorf("limit(0) changed the order: %v", ch.order)
	}
}

// TestChooseBenchmarksContended: two parallel benchmarks, one of a third
// of the other's rate: for lock-contention both are measured (contention
// does not follow the rate), for spin-loop the slower one is dominated.
func TestChooseBenchmarksContended(t *testing.T) {
	ms := time.Millisecond
	p, q := Benchmark{Pkg: "p", Name: "BenchmarkP"}, Benchmark{Pkg: "p", Name: "BenchmarkQ"}
	its := map[Benchmark]BenchIters{p: {Wall: 10 * ms, SecPerOp: 1e-6, Units: units}, q: {Wall: 10 * ms, SecPerOp: 1e-6, Units: units}}
	heat := map[Benchmark]BenchHeat{p: {PerIter: 3}, q: {PerIter: 1}}
	for _, tc := range []struct {
		op   *mutate.Operator
		want string
	}{
		{operators.LockContention, "[BenchmarkP BenchmarkQ] []"},
		{operators.SpinLoop, "[BenchmarkP] [BenchmarkQ]"},
	} {
		ch := chooseBenchmarks([]Benchmark{q, p}, tc.op, orderCosts(heat, its, "BenchmarkP", "BenchmarkQ"))
		if got := fmt.Sprint(ch.order, ch.dominated); got != tc.want {
			t.Errorf("%s: order, dominated = %s, want %s", tc.op.Name, got, tc.want)
		}
	}
}
