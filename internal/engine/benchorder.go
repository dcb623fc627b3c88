package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// dominanceFactor is how much less often per second a sequential
// benchmark may run a mutant's site than the one that runs it most often
// before it is left out, for an operator whose injected cost is the same
// at every execution of its site (see chooseBenchmarks).
const dominanceFactor = 2

// A benchChoice is the benchmarks a mutant is measured on, in measuring
// order, and those left out: dominated by a more sensitive one, or beyond
// the family with which the first can kill alone.
type benchChoice struct {
	order     []Benchmark
	dominated []Benchmark
	by        []Benchmark // parallel to dominated: the benchmark dominating each
	beyond    []Benchmark
}

// benchCosts is what chooseBenchmarks knows from the baseline: how often
// each benchmark's timed loop runs the site per iteration (heat, by
// benchmark at CPU 0), its iteration count, time per iteration, sample
// wall time and metrics (its), and the rule that will judge the samples.
type benchCosts struct {
	heat map[Benchmark]BenchHeat
	its  map[Benchmark]BenchIters
	rule score.Rule
	// metric reports whether a unit is tested (Measurement.Metric).
	metric func(unit string) bool
	// round is the wall time of one round (a baseline and a mutant
	// sample) of a benchmark sampled with it.
	round func(BenchIters) time.Duration
	// concurrent reports whether a benchmark runs its body from several
	// goroutines (b.RunParallel, go statements).
	concurrent func(Benchmark) bool
	procs      int // GOMAXPROCS of a benchmark run without -cpu
}

// rate is how often b's timed loop runs the site per second of baseline
// time (0: unknown).
func (bc benchCosts) rate(b Benchmark) float64 {
	it := bc.its[b]
	b.CPU = 0
	if it.SecPerOp > 0 {
		return bc.heat[b].PerIter / it.SecPerOp
	}
	return 0
}

// sensitivity is the relative slowdown of b per nanosecond of CPU time
// injected at each execution of the site, per 1e9: its rate, divided, for a
// concurrent benchmark, by the GOMAXPROCS it runs with (its time per
// operation is wall time shared by that many running goroutines).
func (bc benchCosts) sensitivity(b Benchmark) float64 {
	if !bc.concurrent(b) {
		return bc.rate(b)
	}
	p := b.CPU
	if p <= 0 {
		p = bc.procs
	}
	return bc.rate(b) / float64(max(p, 1))
}

// index orders benchmarks for measuring: sensitivity per second of a
// round's wall time (the sensitivity alone when the cost is unknown).
func (bc benchCosts) index(b Benchmark) float64 {
	if c := bc.round(bc.its[b]); c > 0 {
		return bc.sensitivity(b) / c.Seconds()
	}
	return bc.sensitivity(b)
}

// chooseBenchmarks returns the benchmarks a mutant of op is measured on
// and their order, from the baseline's coverage and timings and the rule
// only (never the mutant's samples, so the choice cannot bias the rule).
//
// Order: by sensitivity per second of a round's wall time, highest first
// (the order of a search that stops at the first success: the chance that
// a benchmark kills, taken as proportional to its sensitivity, over its
// cost), so of benchmarks of about equal sensitivity the cheaper round
// comes first; unknown sensitivities after known ones, by the cheaper
// round; then the given order.
//
// An inert operator's injection (mutate.Operator.Inert) costs the same at
// every execution of its site (a tail's, Operator.Tail, on average: d at
// every k-th), so it slows each benchmark's mean time about in proportion
// to the benchmark's sensitivity. For its mutants:
//   - Dominance: a benchmark whose sensitivity is known and below
//     1/dominanceFactor of the highest shows less than that fraction of
//     that one's relative slowdown: left out.
//   - Family: further benchmarks, about as sensitive as the first, add
//     replication but also tests to the family of the multiple-testing
//     correction, and with too many of them a clear kill on the first
//     (every mutant sample above every baseline sample at the first look)
//     must wait for all of them to be measured. So a benchmark is kept, in
//     order, only while the first could still kill alone at the first
//     look with the kept ones pending (score.Rule.DecideAhead; with the
//     default rule: two benchmarks).
//
// For an operator whose cost grows with contention (Operator.Contention)
// a concurrent benchmark is more sensitive than its rate says (waiters pay
// too, and how often they wait does not follow the rate): the concurrent
// benchmarks come first and none of them is left out as dominated (on
// fastjson a lock-contention mutant slowed a parallel benchmark of half
// the rate about as much); the family applies to them as to the others. For a tail operator the benchmarks reporting a tested
// custom metric are always kept, and are no reference for dominance (a
// latency percentile can show a tail the mean does not).
func chooseBenchmarks(bs []Benchmark, op *mutate.Operator, bc benchCosts) benchChoice {
	var ch benchChoice
	contended := func(b Benchmark) bool {
		return op != nil && op.Inert && op.Contention != mutate.ContentionNone && bc.concurrent(b)
	}
	order := slices.Clone(bs)
	slices.SortStableFunc(order, func(a, b Benchmark) int {
		return cmp.Or(cmp.Compare(b2i(contended(b)), b2i(contended(a))),
			cmp.Compare(bc.index(b), bc.index(a)), cmp.Compare(bc.round(bc.its[a]), bc.round(bc.its[b])))
	})
	if op == nil || !op.Inert || len(order) < 2 {
		ch.order = order
		return ch
	}
	exempt := func(b Benchmark) bool { return op.Tail && bc.custom(b) }
	var top [2]float64
	var by [2]Benchmark
	for _, b := range order {
		if s, k := bc.sensitivity(b), b2i(contended(b)); s > top[k] && !exempt(b) {
			top[k], by[k] = s, b
		}
	}
	for _, b := range order {
		switch s, k := bc.sensitivity(b), b2i(contended(b)); {
		case exempt(b):
			ch.order = append(ch.order, b)
		case k == 0 && s > 0 && s*dominanceFactor < top[k]:
			ch.dominated = append(ch.dominated, b)
			ch.by = append(ch.by, by[k])
		case len(ch.order) == 0 || bc.killsAlone(ch.order[0], append(slices.Clone(ch.order[1:]), b)):
			ch.order = append(ch.order, b)
		default:
			ch.beyond = append(ch.beyond, b)
		}
	}
	return ch
}

// limit keeps at most n benchmarks (n > 0) in the order, the rest
// beyond it.
func (ch *benchChoice) limit(n int) {
	if n > 0 && len(ch.order) > n {
		ch.beyond = append(slices.Clone(ch.order[n:]), ch.beyond...)
		ch.order = ch.order[:n]
	}
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// custom reports whether b reports a tested metric other than sec/op,
// B/op and allocs/op.
func (bc benchCosts) custom(b Benchmark) bool {
	for _, u := range bc.its[b].Units {
		if bc.metric(u) && !DefaultMetric(u) {
			return true
		}
	}
	return false
}

// killsAlone reports whether the rule would kill at its first look on
// benchmark first alone, every mutant sample of its time above every
// baseline sample, with the benchmarks pending still to be measured.
func (bc benchCosts) killsAlone(first Benchmark, pending []Benchmark) bool {
	n := bc.rule.WithDefaults().MinSamples
	done := score.Sample{Benchmark: first.Name, Metric: score.SecPerOp}
	for i := range n {
		done.Baseline = append(done.Baseline, float64(1+i))
		done.Mutant = append(done.Mutant, float64(1+n+i)*10)
	}
	var ps []score.Sample
	for _, b := range pending {
		for _, u := range bc.its[b].Units {
			if bc.metric(u) {
				ps = append(ps, score.Sample{Benchmark: b.Name, Metric: u})
			}
		}
	}
	return bc.rule.DecideAhead([]score.Sample{done}, ps).Decision == score.Kill
}

// note says which benchmarks were left out, for the result's reason; ""
// if none.
func (ch benchChoice) note(names map[Benchmark]string) string {
	list := func(bs []Benchmark) string {
		var out []string
		for _, b := range bs {
			out = append(out, names[b])
		}
		return strings.Join(out, ", ")
	}
	var notes []string
	for i := 0; i < len(ch.dominated); {
		var group []Benchmark
		for _, b := range ch.dominated[i:] {
			if ch.by[i+len(group)] != ch.by[i] {
				break
			}
			group = append(group, b)
		}
		n := len(group)
		notes = append(notes, fmt.Sprintf("not measured on %s: %s the site less than 1/%d as often per second of CPU as %s, so this injection, the same at every execution, slows %s less than 1/%d as much",
			list(group), english.Choose(n, "it runs", "they run"), dominanceFactor, names[ch.by[i]], english.Choose(n, "it", "them"), dominanceFactor))
		i += n
	}
	if n := len(ch.beyond); n > 0 {
		notes = append(notes, fmt.Sprintf("not measured on %s: with %s in the family a clear kill on %s could not be decided before every benchmark was measured",
			list(ch.beyond), english.Choose(n, "it", "them"), names[ch.order[0]]))
	}
	return strings.Join(notes, "; ")
}

// HeatByBench maps each benchmark of sel (CPU 0) to its heat.
func HeatByBench(sel Selection) map[Benchmark]BenchHeat {
	out := map[Benchmark]BenchHeat{}
	for i, b := range sel.Benches {
		if i < len(sel.Heat) {
			b.CPU = 0
			out[b] = sel.Heat[i]
		}
	}
	return out
}
