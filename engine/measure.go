package engine

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// A Job is one mutant at one level, built, passing its tests and reached
// by benchmarks: what Measure measures.
type Job struct {
	Mutant  mutate.Mutant
	Level   string
	Benches []Benchmark // the benchmarks to measure it on
	// Pool is every benchmark reaching the site (Benches are the ones
	// -max-benchmarks kept): an inert operator's mutant is measured on
	// those of them chooseBenchmarks picks (see candidates).
	Pool    []Benchmark
	Note    string                  // benchmarks left out by -max-benchmarks
	MutBins map[string]string       // package -> mutant test binary
	Heat    map[Benchmark]BenchHeat // by benchmark (CPU 0): how often it runs the site
	Out     string                  // the results directory: the samples go to its samples/ID/LEVEL
}

// DefaultMetric is the metric filter when Campaign.Metric is nil:
// sec/op (instructions/op where counted), B/op and allocs/op.
func DefaultMetric(unit string) bool {
	return unit == "sec/op" || unit == score.InstructionsPerOp || unit == "B/op" || unit == "allocs/op"
}

// metric is the campaign's metric filter: Campaign.Metric, or
// defaultMetric when it is nil.
func (e *Engine) metric() func(unit string) bool {
	if e.cfg.Metric != nil {
		return e.cfg.Metric
	}
	return DefaultMetric
}

// A measurement is the state of measuring one job: the benchfmt files,
// the round order's random source, and each benchmark's samples so far.
type measurement struct {
	e       *Engine
	j       *Job
	rng     *rand.Rand
	files   [2]string // relative to the output directory: base.txt, mut.txt
	outs    [2]*os.File
	metric  func(unit string) bool
	names   map[Benchmark]string
	its     map[Benchmark]BenchIters
	series  map[Benchmark]*series
	benches []Benchmark // the benchmarks it may measure (see candidates)
	order   []Benchmark // the benchmarks measured, in order (see chooseBenchmarks)
	choice  benchChoice
	lr      *results.LevelResult       // Status set when a mutant sample fails
	reports map[string]map[string]bool // package -> its benchmarks that call b.ReportMetric (see mayReport)
	// rule is the campaign's rule seeded for this mutant and level
	// (score.Rule.ForMutant): tie-breaking and bootstrap streams differ
	// between mutants measured on the same benchmark.
	rule score.Rule
	// counted are the benchmarks measured on instruction counts
	// (count.go); verdictMetric says which metric the verdict rests on.
	counted       map[Benchmark]bool
	verdictMetric MetricChoice
}

// A series is every sample so far of one benchmark of a job.
type series struct {
	units    []string // in order of first appearance
	samples  map[string]*score.Sample
	censored map[string][]int // indices of censored mutant samples
	rounds   int
	slowest  time.Duration // slowest baseline sample
}

// Measure runs the job's benchmarks, baseline and mutant alternately, one
// process per sample (the order of the two sides randomized per round,
// seeded by the campaign seed, the mutant and the level), until the Rule
// decides. It works look by look: each benchmark in turn, the most
// sensitive first (measureOrder), is brought to the look's sample count,
// and once the benchmarks so far kill the mutant whatever the others'
// values (score.Rule.DecideAhead) the others are not brought to it
// (LevelResult.Skipped); otherwise the rule decides on all of them. The
// raw outputs go to benchfmt files in the output directory, so that
// benchstat base.txt mut.txt shows the samples the verdict rests on.
func (e *Engine) Measure(ctx context.Context, j *Job) (*results.LevelResult, error) {
	ms, err := e.newMeasurement(ctx, j)
	if err != nil {
		return nil, err
	}
	e.noise.adviseAtStart(&e.cfg, e.Prog)
	defer ms.outs[0].Close()
	defer ms.outs[1].Close()
	v, skipped, err := ms.sample(ctx)
	if err != nil || ms.lr.Status != "" {
		return ms.lr, err
	}
	lr := ms.result(v, skipped)
	lr.Metric, lr.MetricReason = ms.verdictMetric.Metric, ms.verdictMetric.Why
	for _, fh := range ms.outs {
		if err := fh.Close(); err != nil {
			return nil, fmt.Errorf("writing the samples of %s: %w", j.Mutant.ID, err)
		}
	}
	return lr, nil
}

// newMeasurement creates the job's benchfmt files, finds the iteration
// count of each benchmark it may measure (see iters) and chooses the
// benchmarks and their order (chooseBenchmarks), with a warning for a
// count dominated by cold first iterations.
func (e *Engine) newMeasurement(ctx context.Context, j *Job) (*measurement, error) {
	h := fnv.New64a()
	h.Write([]byte(j.Mutant.ID + "\x00" + j.Level))
	op := operators.ByName(j.Mutant.Operator)
	ms := &measurement{e: e, j: j, rng: rand.New(rand.NewPCG(uint64(e.cfg.Seed), h.Sum64())),
		metric: e.metric(), its: map[Benchmark]BenchIters{},
		series: map[Benchmark]*series{}, lr: &results.LevelResult{Iterations: map[string]int{}},
		rule: e.cfg.Rule.ForMutant(j.Mutant.ID + "/" + j.Level)}
	ms.benches = candidates(op, j.Benches, j.Pool, func(pkg string) bool { return j.MutBins[pkg] != "" })
	ms.names = displayNames(ms.benches)
	relDir := filepath.ToSlash(filepath.Join("samples", SafeName(j.Mutant.ID), j.Level))
	if err := os.MkdirAll(filepath.Join(j.Out, relDir), 0o755); err != nil {
		return nil, err
	}
	ms.files = [2]string{relDir + "/base.txt", relDir + "/mut.txt"}
	for i, f := range ms.files {
		fh, err := os.Create(filepath.Join(j.Out, f))
		if err != nil {
			if i == 1 {
				ms.outs[0].Close()
			}
			return nil, err
		}
		ms.outs[i] = fh
	}
	for _, b := range ms.benches {
		it, err := e.Iters(ctx, j.Level, b)
		if err != nil {
			ms.outs[0].Close()
			ms.outs[1].Close()
			return nil, err
		}
		ms.its[b] = it
		ms.series[b] = &series{samples: map[string]*score.Sample{}, censored: map[string][]int{}}
	}
	ms.choice = chooseBenchmarks(ms.benches, op, e.benchCosts(j.Heat, ms.its, ms.metric))
	if len(ms.benches) > len(j.Benches) {
		ms.choice.limit(e.cfg.MaxBenchmarks)
	}
	ms.order = ms.choice.order
	if err := ms.chooseMetrics(ctx, op); err != nil {
		ms.outs[0].Close()
		ms.outs[1].Close()
		return nil, err
	}
	for _, b := range ms.order {
		if it := ms.its[b]; it.N > 0 && !ms.counted[b] {
			ms.lr.Iterations[ms.names[b]] = it.N
			if it.N < LowIterations {
				ms.lr.Warnings = append(ms.lr.Warnings, fmt.Sprintf("%s runs %s per sample (one takes about %s): its samples are dominated by cold first iterations",
					ms.names[b], english.Plural(it.N, "iteration"), (it.Wall/time.Duration(it.N)).Round(time.Microsecond)))
			}
		}
	}
	return ms, nil
}

// candidates are the benchmarks a mutant of op may be measured on: for an
// inert operator (whose choice chooseBenchmarks makes from the baseline's
// costs) every benchmark of pool (all that reach it) in a package whose
// mutant binary is built, else kept (the ones -max-benchmarks kept).
func candidates(op *mutate.Operator, kept, pool []Benchmark, built func(pkg string) bool) []Benchmark {
	if op == nil || !op.Inert || len(pool) <= len(kept) {
		return kept
	}
	var out []Benchmark
	for _, b := range pool {
		if built(b.Pkg) {
			out = append(out, b)
		}
	}
	return out
}

// benchCosts is what chooseBenchmarks needs to know of the benchmarks of
// a job: heat, its, the tested metrics, the campaign's rule, the wall
// time of a round, whether a benchmark is concurrent (its package's test
// files parsed once per call).
func (e *Engine) benchCosts(heat map[Benchmark]BenchHeat, its map[Benchmark]BenchIters, metric func(string) bool) benchCosts {
	conc := map[string]map[string]bool{}
	return benchCosts{heat: heat, its: its, rule: e.cfg.Rule, metric: metric, round: e.roundCost, procs: runtime.GOMAXPROCS(0),
		concurrent: func(b Benchmark) bool {
			p := e.pkgs[b.Pkg]
			if p == nil {
				return true
			}
			if conc[b.Pkg] == nil {
				conc[b.Pkg] = concurrentBenchmarks(p.Dir)
			}
			return conc[b.Pkg][topName(b.Name)]
		}}
}

// roundCost is the wall time of a round of a benchmark sampled with it
// whose mutant sample runs to the censoring cap (twice the baseline
// sample without a cap).
func (e *Engine) roundCost(it BenchIters) time.Duration {
	if c := e.cfg.CensorCap(it, it.Wall); c > 0 {
		return it.Wall + c
	}
	return 2 * it.Wall
}

// sample takes rounds look by look until the rule decides, and returns its
// verdict and the benchmarks left behind by a kill ahead of them.
func (ms *measurement) sample(ctx context.Context) (score.Verdict, []Benchmark, error) {
	rule := ms.rule
	var v score.Verdict
	for _, n := range rule.Looks() {
		for i, b := range ms.order {
			for ms.series[b].rounds < n {
				if err := ms.round(ctx, b); err != nil || ms.lr.Status != "" {
					return v, nil, err
				}
			}
			if rest := ms.order[i+1:]; len(rest) > 0 {
				if va := rule.DecideAhead(ms.forRule(ms.order[:i+1]), ms.pending(rest)); va.Decision == score.Kill {
					return va, rest, nil
				}
			}
		}
		if v = rule.Decide(ms.forRule(ms.order)); v.Decision != score.Continue {
			break
		}
	}
	return v, nil, nil
}

// round takes one sample of each side of benchmark b, in random order.
// A failing mutant sample sets ms.lr's status.
func (ms *measurement) round(ctx context.Context, b Benchmark) error {
	if ms.counted[b] {
		return ms.countRound(ctx, b)
	}
	var vals [2]map[string]float64
	cens := false
	for _, side := range ms.rng.Perm(2) {
		out, c, err := ms.sampleOnce(ctx, b, side)
		if err != nil || out == nil {
			return err
		}
		vals[side], cens = out, cens || c
	}
	ms.e.itc.learnUnits(ms.j.Level, b, sortedUnits(vals[0]))
	ms.record(b, vals, cens)
	return nil
}

// record adds a round of benchmark b to its series: the values of each
// side by unit, and whether the mutant's sample was censored. A metric
// without a value on both sides in this round (a censored sample has only
// sec/op) records the round as missing (score.Sample.Missing).
func (ms *measurement) record(b Benchmark, vals [2]map[string]float64, cens bool) {
	s := ms.series[b]
	round := s.rounds
	s.rounds++
	units := RoundUnits(vals, ms.metric)
	for _, u := range MissedUnits(s.units, units) {
		s.samples[u].Missing = append(s.samples[u].Missing, round)
	}
	for _, unit := range units {
		sm := s.samples[unit]
		if sm == nil {
			sm = &score.Sample{Benchmark: ms.names[b], Metric: unit, Missing: MissingBefore(round)}
			s.samples[unit] = sm
			s.units = append(s.units, unit)
		}
		if cens {
			s.censored[unit] = append(s.censored[unit], len(sm.Mutant))
		}
		sm.Baseline = append(sm.Baseline, vals[0][unit])
		sm.Mutant = append(sm.Mutant, vals[1][unit])
	}
}

// RoundUnits returns the units a round's two sides (vals) both have and
// metric keeps, in report order (sortedUnits).
func RoundUnits(vals [2]map[string]float64, metric func(string) bool) []string {
	var out []string
	for _, u := range sortedUnits(vals[0]) {
		if _, ok := vals[1][u]; ok && metric(u) {
			out = append(out, u)
		}
	}
	return out
}

// MissedUnits returns the units of earlier rounds that are not among
// present (this round's): their metrics miss this round.
func MissedUnits(units, present []string) []string {
	var out []string
	for _, u := range units {
		if !slices.Contains(present, u) {
			out = append(out, u)
		}
	}
	return out
}

// MissingBefore returns the rounds 0 to n-1: the rounds a metric first
// seen in round n missed.
func MissingBefore(n int) []int {
	var out []int
	for i := range n {
		out = append(out, i)
	}
	return out
}

// sampleOnce runs one sample of b on one side (0 baseline, 1 mutant) and
// returns its values by unit, and whether it was censored: with N
// iterations on both sides, a mutant sample running past the censoring cap
// is stopped and ordered above every baseline sample; only the time metric
// gets a value. Without a cap (time-based samples, -censor 0) the mutant's
// timeout is generous: a slowdown is to be measured, not a timeout. A
// failing mutant sample sets ms.lr's status and returns nil values.
func (ms *measurement) sampleOnce(ctx context.Context, b Benchmark, side int) (map[string]float64, bool, error) {
	e, j, it, s := ms.e, ms.j, ms.its[b], ms.series[b]
	bin := [2]string{e.bins[j.Level][b.Pkg], j.MutBins[b.Pkg]}[side]
	timeout, limit := time.Duration(0), e.cfg.CensorCap(it, s.slowest)
	if side == 1 {
		timeout = limit
		if limit == 0 {
			timeout = max(100*it.Wall, time.Minute, e.cfg.Timeout)
		}
	}
	out, res, err := e.BenchOnce(ctx, bin, e.pkgs[b.Pkg].Dir, b, e.cfg.benchtimeArg(it), timeout)
	switch {
	case err != nil:
		return nil, false, err
	case side == 1 && limit > 0 && res.TimedOut:
		perOp := res.Elapsed.Seconds() / float64(it.N)
		if _, err := fmt.Fprintf(ms.outs[1], "# censored: %s stopped after %s (cap %s = %g x slowest baseline sample + %s) at %dx: slower than every baseline sample; sec/op >= %g\n",
			b.Name, res.Elapsed.Round(time.Millisecond), limit.Round(time.Millisecond), e.cfg.CensorFactor, it.SlackOrDefault(), it.N, perOp); err != nil {
			return nil, false, fmt.Errorf("writing the samples of %s: %w", j.Mutant.ID, err)
		}
		return map[string]float64{"sec/op": perOp}, true, nil
	case !res.OK() || out == nil:
		if side == 0 {
			return nil, false, fmt.Errorf("baseline benchmark %s of %s failed while measuring %s: %s", b.Name, b.Pkg, j.Mutant.ID, LastLines(res.Output, 3))
		}
		st := BenchFailure(res)
		ms.lr.Status, ms.lr.Reason = st.Status, fmt.Sprintf("benchmark %s: %s", b.Name, st.Reason)
		ms.lr.Benchmarks = []score.TestResult{}
		return nil, false, nil
	}
	if _, err := ms.outs[side].Write(res.Output); err != nil {
		return nil, false, fmt.Errorf("writing the samples of %s: %w", j.Mutant.ID, err)
	}
	if side == 0 {
		s.slowest = max(s.slowest, res.Elapsed)
		e.noise.add(j.Level, b, score.SecPerOp, out[score.SecPerOp])
	}
	return out, false, nil
}

// forRule returns the samples of the benchmarks bs, censored values
// raised above the baseline's (see censoredSample); a metric that missed
// rounds lists them (score.Sample.Missing) and is tested on the others.
func (ms *measurement) forRule(bs []Benchmark) []score.Sample {
	var out []score.Sample
	for _, b := range bs {
		s := ms.series[b]
		for _, u := range s.units {
			out = append(out, CensoredSample(*s.samples[u], s.censored[u]))
		}
	}
	return out
}

// pending returns the tests of benchmarks bs, not yet at the current look,
// for DecideAhead: their samples so far, and one empty sample per metric
// the benchmark may report that has no value yet (before their first
// round, or censored in every one): every one counts in the family. The
// metrics it may report are mayReport's.
func (ms *measurement) pending(bs []Benchmark) []score.Sample {
	var out []score.Sample
	for _, b := range bs {
		out = append(out, ms.forRule([]Benchmark{b})...)
		for _, u := range ms.mayReport(b) {
			if ms.metric(u) && ms.series[b].samples[u] == nil {
				out = append(out, score.Sample{Benchmark: ms.names[b], Metric: u})
			}
		}
	}
	return out
}

// mayReport returns the units benchmark b may report: those of its
// iteration-count run and of every baseline sample of it since
// (learnUnits), and, when its source calls b.ReportMetric (itself or
// through its test files' functions), every tested custom unit
// (Campaign.CustomUnits): a custom metric first reported after the
// iteration-count run counts in the family from the start.
func (ms *measurement) mayReport(b Benchmark) []string {
	if ms.counted[b] {
		return []string{score.InstructionsPerOp, score.BytesPerOp, score.AllocsPerOp}
	}
	units := ms.its[b].Units
	if it, ok := ms.e.itc[itersKey(ms.j.Level, b)]; ok {
		units = unionUnits(units, it.Units)
	}
	if len(ms.e.cfg.CustomUnits) == 0 {
		return units
	}
	p := ms.e.pkgs[b.Pkg]
	if p == nil {
		return unionUnits(units, ms.e.cfg.CustomUnits) // its source unknown: it may
	}
	if ms.reports == nil {
		ms.reports = map[string]map[string]bool{}
	}
	if _, ok := ms.reports[b.Pkg]; !ok {
		ms.reports[b.Pkg] = benchmarksThat(p.Dir, reportsMetric)
	}
	if ms.reports[b.Pkg][topName(b.Name)] {
		units = unionUnits(units, ms.e.cfg.CustomUnits)
	}
	return units
}

// result is the job's result from the rule's verdict.
func (ms *measurement) result(v score.Verdict, skipped []Benchmark) *results.LevelResult {
	e, j, lr := ms.e, ms.j, ms.lr
	lr.Status, lr.Reason = verdictStatus(v, ms.rule)
	lr.Benchmarks = v.Tests
	if lr.Benchmarks == nil {
		lr.Benchmarks = []score.TestResult{}
	}
	if len(v.Warnings) > 0 && lr.Reason == "" {
		lr.Reason = strings.Join(v.Warnings, "; ")
	}
	if len(skipped) > 0 {
		lr.Reason = strings.TrimPrefix(lr.Reason+"; "+ms.skipNote(v, skipped), "; ")
		for _, b := range skipped {
			lr.Skipped = append(lr.Skipped, ms.names[b])
		}
	}
	if len(lr.Iterations) == 0 {
		lr.Iterations = nil
	}
	note := j.Note
	if len(ms.benches) != len(j.Benches) {
		note = "" // chosen from the pool, not by -max-benchmarks
	}
	for _, n := range []string{note, ms.choice.note(ms.names)} {
		if n != "" {
			lr.Reason = strings.TrimPrefix(lr.Reason+"; "+n, "; ")
		}
	}
	if lr.Status == score.Survived {
		if hint := survivorHint(e.pkgs, e.cfg.Rule, j.Mutant.Operator, ms.benches, lr.Benchmarks); hint != "" {
			lr.Reason = strings.TrimPrefix(lr.Reason+"; "+hint, "; ")
		}
	}
	for _, b := range ms.benches {
		s := ms.series[b]
		for _, u := range s.units {
			sm := s.samples[u]
			lr.Samples = append(lr.Samples, results.SampleSet{
				Benchmark: sm.Benchmark, Metric: sm.Metric,
				Baseline: sm.Baseline, Mutant: sm.Mutant, Files: ms.files,
				MutantCensored: s.censored[u],
			})
		}
	}
	return lr
}

// verdictStatus maps the rule's final verdict to a status and its reason:
// Kill is killed, Survive (the data rule out the slowdown that matters)
// survived, and Abstain (the budget spent without ruling it out) or a
// Continue at the cap undecided, with what was seen.
func verdictStatus(v score.Verdict, rule score.Rule) (score.Status, string) {
	switch v.Decision {
	case score.Kill:
		return score.Killed, ""
	case score.Survive:
		return score.Survived, ""
	}
	if v.Decision == score.Abstain && v.Reason != "" {
		return score.Undecided, v.Reason // the bound, and what would decide it
	}
	return score.Undecided, fmt.Sprintf("undecided after %s (the -max-samples budget): no kill, and the data do not rule out a slowdown of x%g", english.Plural(rule.MaxSamples, "sample"), rule.Margin)
}

// skipNote says why the benchmarks skipped were not brought to the look
// that killed.
func (ms *measurement) skipNote(v score.Verdict, skipped []Benchmark) string {
	var names []string
	for _, b := range skipped {
		n := ms.names[b]
		if k := ms.series[b].rounds; k > 0 {
			n += fmt.Sprintf(" (%s)", english.Plural(k, "sample"))
		}
		names = append(names, n)
	}
	n := 0
	if len(v.Tests) > 0 {
		n = v.Tests[0].NBaseline
	}
	return fmt.Sprintf("killed at look %d (%d samples) before %s reached it: the rejecting test's level counts their tests in the family", v.Look, n, strings.Join(names, ", "))
}

// displayNames names each benchmark for the report: its name (with -N
// when it runs at a -cpu value N > 1, as go test prints it), qualified by
// its package's import path (path.Name) only where two packages'
// benchmarks share a name.
func displayNames(bs []Benchmark) map[Benchmark]string {
	count := map[string]int{}
	for _, b := range bs {
		count[b.CPUName()]++
	}
	out := map[Benchmark]string{}
	for _, b := range bs {
		out[b] = b.CPUName()
		if count[b.CPUName()] > 1 {
			out[b] = b.Pkg + "." + b.CPUName()
		}
	}
	return out
}

// sortedUnits returns the units of vals in report order: sec/op, B/op,
// allocs/op, then custom units by name.
func sortedUnits(vals map[string]float64) []string {
	rank := map[string]int{"sec/op": 0, "instructions/op": 0, "B/op": 1, "allocs/op": 2}
	units := make([]string, 0, len(vals))
	for u := range vals {
		units = append(units, u)
	}
	sort.Slice(units, func(i, j int) bool {
		ri, iok := rank[units[i]]
		rj, jok := rank[units[j]]
		if !iok {
			ri = 3
		}
		if !jok {
			rj = 3
		}
		if ri != rj {
			return ri < rj
		}
		return units[i] < units[j]
	})
	return units
}

// CensoredSample returns s with its censored mutant values (at the indices
// given) raised above every baseline value if needed: a censored sample is
// only known to be slower than every baseline sample, and the rank tests
// need no more than that.
func CensoredSample(s score.Sample, idx []int) score.Sample {
	if len(idx) == 0 {
		return s
	}
	top := math.Inf(-1)
	for _, v := range s.Baseline {
		top = max(top, v)
	}
	s.Mutant = slices.Clone(s.Mutant)
	for _, i := range idx {
		if s.Mutant[i] <= top {
			s.Mutant[i] = math.Nextafter(top, math.Inf(1))
		}
	}
	return s
}

// Order is what Measure would measure a mutant of op at level on: of
// kept (the benchmarks -max-benchmarks kept) or, for an inert operator,
// of pool (every benchmark reaching the site) in a package built says its
// mutant binary is built, the benchmarks chosen, in order
// (chooseBenchmarks); and the candidates whose baseline runs, with their
// iteration counts (Iters). heat is HeatByBench of the site.
func (e *Engine) Order(ctx context.Context, level string, op *mutate.Operator, kept, pool []Benchmark, heat map[Benchmark]BenchHeat, built func(pkg string) bool) (order, runs []Benchmark, its map[Benchmark]BenchIters) {
	cands := candidates(op, kept, pool, built)
	its = map[Benchmark]BenchIters{}
	for _, b := range cands {
		it, err := e.Iters(ctx, level, b)
		if err != nil {
			continue // Measure leaves it out too
		}
		its[b], runs = it, append(runs, b)
	}
	ch := chooseBenchmarks(runs, op, e.benchCosts(heat, its, e.metric()))
	if len(cands) > len(kept) {
		ch.limit(e.cfg.MaxBenchmarks)
	}
	return ch.order, runs, its
}
