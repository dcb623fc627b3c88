package engine

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// A Job is one mutant at one level, built, passing its tests and reached
// by benchmarks: what Measure measures.
type Job struct {
	// Mutant is the mutant to measure; its operator (Mutant.Op) says how:
	// which benchmarks can show its cost (candidates), whether an
	// instruction count sees it (Cost), what a survivor's hint says
	// (Contention, Tail).
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

// DefaultMetric is the metric filter when Measurement.Metric is nil:
// sec/op (instructions/op where counted), B/op and allocs/op.
func DefaultMetric(unit string) bool {
	return unit == "sec/op" || unit == score.InstructionsPerOp || unit == "B/op" || unit == "allocs/op"
}

// metric is the engine's metric filter: Measurement.Metric, or
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
	// rule is the configuration's rule seeded for this mutant and level
	// (score.Rule.ForMutant): tie-breaking and bootstrap streams differ
	// between mutants measured on the same benchmark.
	rule score.Rule
	// counted are the benchmarks measured on instruction counts
	// (count.go); verdictMetric says which metric the verdict rests on.
	counted       map[Benchmark]bool
	verdictMetric MetricChoice
	pre           map[Benchmark]*instr.Pre // the mutant's pre-counts (count.go)
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
// seeded by the configuration's Seed, the mutant and the level), until the Rule
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
	e.noise.logStart(&e.cfg, e.Prog)
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
	op := j.Mutant.Op
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
			if it.N < lowIterations {
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
// a job: heat, its, the tested metrics, the configuration's rule, the wall
// time of a round, whether a benchmark is concurrent (it runs at -cpu > 1,
// or its package's test files say so: countState.concurrent, parsed once
// per engine).
func (e *Engine) benchCosts(heat map[Benchmark]BenchHeat, its map[Benchmark]BenchIters, metric func(string) bool) benchCosts {
	return benchCosts{heat: heat, its: its, rule: e.cfg.Rule, metric: metric, round: e.roundCost, procs: runtime.GOMAXPROCS(0),
		concurrent: func(b Benchmark) bool { return e.count.concurrent(e.pkgs, b) }}
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

// BenchOnce runs benchmark b once in bin at benchtime and returns its values by unit
// (tidied by benchfmt: sec/op, B/op, allocs/op, custom units); nil values
// if the run failed or printed no result for b, or one without a time
// (benchValues).
func (e *Engine) BenchOnce(ctx context.Context, bin, dir string, b Benchmark, benchtime string, timeout time.Duration) (map[string]float64, proc.Result, error) {
	args := []string{"-test.run=^$", "-test.bench=" + b.Pattern(), "-test.benchtime=" + benchtime,
		"-test.count=1", "-test.benchmem", "-test.timeout=0", "-test.paniconexit0"}
	if b.CPU > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(b.CPU))
	}
	e.LogCmd(dir, bin, args...)
	res, err := proc.Run(ctx, dir, nil, timeout, bin, args...)
	if err != nil {
		return nil, res, fmt.Errorf("running %s: %w", bin, err)
	}
	if res.Canceled {
		return nil, res, ctx.Err()
	}
	if !res.OK() {
		return nil, res, nil
	}
	return benchValues(res.Output, bin, b), res, nil
}

// benchValues reads b's values by unit from the output of its run (file
// names it in errors); nil if the output has no result for b or one
// without a time per operation: the benchmark ended its process
// (timelessResult), and the run failed although it may have ended with
// status 0 (BenchFailure says why).
func benchValues(out []byte, file string, b Benchmark) map[string]float64 {
	want := strings.TrimPrefix(b.Name, "Benchmark") + b.Suffix() // benchfmt drops the prefix
	rd := benchfmt.NewReader(bytes.NewReader(out), file)
	for rd.Scan() {
		br, ok := rd.Result().(*benchfmt.Result)
		if !ok || br.Name.String() != want {
			continue
		}
		vals := map[string]float64{}
		for _, v := range br.Values {
			vals[v.Unit] = v.Value
		}
		if _, timed := vals["sec/op"]; !timed {
			return nil
		}
		return vals
	}
	return nil
}
