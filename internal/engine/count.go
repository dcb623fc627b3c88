package engine

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// countState is what counting caches over an engine's work (a campaign): counts do not move
// with the load, so each benchmark's iteration count and baseline samples
// at a level are taken once and serve every mutant (docs/instructions.md,
// "A campaign with instruction counts").
type countState struct {
	// mu guards the maps: counted jobs may be measured at once
	// (Engine.CountedOnly). A benchmark's key lock (keyLock) is held while
	// a process fills its caches, so that two jobs take each baseline
	// sample once.
	mu      sync.Mutex
	keys    map[string]*sync.Mutex
	iters   map[string]int             // itersKey -> N
	base    map[string][]instr.Sample  // itersKey -> the baseline's samples so far
	preBase map[string]instr.PreBase   // itersKey -> the baseline's count at the pre-count's run
	failed  map[string]bool            // itersKey -> the baseline cannot be counted: wall time
	conc    map[string]map[string]bool // package -> its concurrent benchmarks
	// floor is the smallest deadline of a mutant's count (0: a minute);
	// tests lower it to see the deadline scale with the work.
	floor time.Duration
}

// counted reports whether the campaign counts the instructions of a
// mutant of op on benchmark b: it counts, and a count sees op's cost on b.
// An operator the registry does not know (calibrate's trials, which change
// nothing) is counted like work. pkgs are the loaded packages.
func (cs *countState) counted(c *Config, pkgs map[string]*mutate.Package, op *mutate.Operator, b Benchmark) bool {
	if c.Counting == nil {
		return false
	}
	if op == nil {
		return true
	}
	return op.Cost.Counted(cs.concurrent(pkgs, b))
}

// concurrent reports whether b runs its code from several goroutines at
// once: it calls b.RunParallel or starts goroutines, or runs at -cpu > 1.
func (cs *countState) concurrent(pkgs map[string]*mutate.Package, b Benchmark) bool {
	if b.CPU > 1 {
		return true
	}
	p := pkgs[b.Pkg]
	if p == nil {
		return true
	}
	cs.mu.Lock()
	known, ok := cs.conc[b.Pkg]
	cs.mu.Unlock()
	if !ok {
		known = concurrentBenchmarks(p.Dir) // parsed outside the lock: a second parse is harmless
		cs.mu.Lock()
		if cs.conc == nil {
			cs.conc = map[string]map[string]bool{}
		}
		cs.conc[b.Pkg] = known
		cs.mu.Unlock()
	}
	return known[topName(b.Name)]
}

// chooseMetrics decides which of the job's benchmarks are counted, finds
// their iteration counts, and gives a mutant measured on counts only the
// counts' minimum effect (a mutant on both keeps wall time's, the larger),
// unless a count varies between processes (varies): that is a noisy
// metric, held to wall time's minimum effect, and the verdict's metric
// reason says so. A benchmark whose baseline cannot be counted
// (countable) is measured on wall time.
func (ms *measurement) chooseMetrics(ctx context.Context, op *mutate.Operator) error {
	e := ms.e
	ms.counted, ms.pre = map[Benchmark]bool{}, map[Benchmark]*instr.Pre{}
	var counted, timed int
	var varying []string
	for _, b := range ms.order {
		if !e.count.counted(&e.cfg, e.pkgs, op, b) {
			timed++
			continue
		}
		n, ok, err := e.countable(ctx, ms.j.Level, b)
		if err != nil {
			return err
		}
		if !ok {
			timed++
			continue
		}
		ms.counted[b] = true
		ms.lr.Iterations[ms.names[b]] = n
		counted++
		if s := e.count.spread(itersKey(ms.j.Level, b)); varies(s) {
			varying = append(varying, fmt.Sprintf("%s x%.4f", ms.names[b], s))
		}
	}
	if counted > 0 && timed == 0 && len(varying) == 0 {
		ms.rule = e.cfg.Counting.OnCounts(ms.rule)
	}
	ms.verdictMetric = metricChoice(op, counted, timed, e.cfg.Counting != nil)
	if len(varying) > 0 {
		ms.verdictMetric.Why += fmt.Sprintf("; a count that varies between processes (%s between the baseline's first two samples) is a noisy metric, held to the minimum effect %.3g of wall time",
			strings.Join(varying, ", "), ms.rule.MinEffect)
	}
	return nil
}

// varies reports whether a count whose baseline's first two samples are
// spread apart (the larger over the smaller) varies between processes:
// by the count's minimum effect (instr.MinEffect) or more, which rests on
// counts that agree to about 0.1% (a map's hash seed or random inputs
// made per process move a count by several per cent).
func varies(spread float64) bool { return spread >= instr.MinEffect }

// spread is the larger over the smaller of the baseline's first two
// counted samples of key (1 before it has two).
func (cs *countState) spread(key string) float64 {
	base := cs.baseOf(key)
	if len(base) < 2 || !(min(base[0].PerOp, base[1].PerOp) > 0) {
		return 1
	}
	return max(base[0].PerOp, base[1].PerOp) / min(base[0].PerOp, base[1].PerOp)
}

// countable finds b's counted iteration count at level and the
// baseline's first counted samples (once per engine): when either fails
// (valgrind stops the benchmark, or -benchtime Nx is too few iterations
// to see its work), b is measured on wall time in every job, with a
// warning, rather than ending the campaign. !ok then, with no error; an
// error only when ctx ended.
func (e *Engine) countable(ctx context.Context, level string, b Benchmark) (int, bool, error) {
	key := itersKey(level, b)
	if e.count.hasFailed(key) {
		return 0, false, nil
	}
	n, first, err := e.count.countIters(ctx, e, e.sites(), level, b)
	if err == nil {
		// Two samples: their spread says whether the count varies.
		e.count.seedBase(key, first, &e.noise, level, b)
		_, err = e.count.baseCount(ctx, e.sampler(), e.sites(), &e.noise, level, b, 1)
	}
	if err == nil {
		return n, true, nil
	}
	if ctx.Err() != nil {
		return 0, false, ctx.Err()
	}
	e.count.mu.Lock()
	if e.count.failed == nil {
		e.count.failed = map[string]bool{}
	}
	e.count.failed[key] = true
	e.count.mu.Unlock()
	e.Warnf("%s at %s is measured on wall time: its baseline cannot be counted under valgrind (%v)", b.CPUName(), level, err)
	return 0, false, nil
}

// metricChoice says which metric a verdict rests on and why.
func metricChoice(op *mutate.Operator, counted, timed int, counting bool) MetricChoice {
	cost := "trial"
	if op != nil {
		cost = op.Cost.String()
	}
	switch {
	case !counting:
		return MetricChoice{Metric: score.SecPerOp, Why: "-measure time"}
	case timed == 0:
		return MetricChoice{Metric: score.InstructionsPerOp, Why: cost + ": an instruction count sees it"}
	case counted == 0 && op != nil && op.Cost == mutate.CostAlloc:
		return MetricChoice{Metric: score.SecPerOp, Why: cost + ": a count leaves out the garbage collector (GOGC=off); only wall time sees it"}
	case counted == 0 && op != nil && op.Cost == mutate.CostContention:
		return MetricChoice{Metric: score.SecPerOp, Why: cost + ": a lock or an atomic costs cycles, not instructions; only wall time sees it"}
	case counted == 0:
		return MetricChoice{Metric: score.SecPerOp, Why: cost + ": only wall time sees it"}
	}
	return MetricChoice{Metric: score.InstructionsPerOp + " and " + score.SecPerOp,
		Why: cost + ": counted where a count sees it, wall time on the other benchmarks"}
}

// countIters is the iteration count of b's counted samples at level,
// found once per engine from counts alone, so that no counted verdict
// depends on the clock: -benchtime Nx (at least instr.MinIters), else
// instr.Sampler.Iters on the baseline binary from instr.MinIters, checked
// between N and 2N by instr.Sampler.Stable (a count per operation that
// still changes with N doubles it; one that never settles is warned of).
// The time mode's count, chosen for a sample's wall time under whatever
// load the machine had, plays no part. The check's two samples at N are
// returned to the caller that found N (nil to the others and for -benchtime
// Nx): they may serve as the baseline's first samples. sites finds the
// baseline's binary.
func (cs *countState) countIters(ctx context.Context, e *Engine, sites benchSites, level string, b Benchmark) (int, []instr.Sample, error) {
	key := itersKey(level, b)
	defer cs.keyLock(key)()
	if n, ok := cs.itersOf(key); ok {
		return n, nil, nil
	}
	var n int
	var first []instr.Sample
	if fixed, ok := fixedIters(e.Config().Benchtime); ok {
		n = max(fixed, instr.MinIters)
	} else {
		e.Prog.Logf("perfmut: counting the iterations of %s at %s under valgrind", b.CPUName(), level)
		sp, bench := e.sampler(), sites.count(level, b, "")
		var err error
		if n, _, err = sp.Iters(ctx, bench, instr.DefaultBudget); err != nil {
			return 0, nil, fmt.Errorf("baseline benchmark %s of %s: %w", b.Name, b.Pkg, err)
		}
		st, err := sp.Stable(ctx, bench, n)
		if err != nil {
			return 0, nil, fmt.Errorf("baseline benchmark %s of %s: %w", b.Name, b.Pkg, err)
		}
		n, first = st.N, st.Samples[:]
		e.Prog.Logf("perfmut: %s at %s counts %.1f %s, %s", b.CPUName(), level, st.Samples[0].PerOp, instr.Unit, st)
		if !st.Stable {
			e.Warnf("%s at %s: its count per operation changes by x%.4f between %d and %d iterations (a cost that grows with the iterations, or one that varies between processes): its counted samples run %d iterations, the baseline's and the mutants' alike",
				b.CPUName(), level, st.Growth, st.N, 2*st.N, st.N)
		}
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.iters == nil {
		cs.iters, cs.base = map[string]int{}, map[string][]instr.Sample{}
	}
	cs.iters[key] = n
	return n, first, nil
}

// seedBase makes smps the baseline's first counted samples of b at level
// when it has none yet (each goes to noise).
func (cs *countState) seedBase(key string, smps []instr.Sample, noise *noiseState, level string, b Benchmark) {
	defer cs.keyLock(key)()
	cs.mu.Lock()
	seed := len(cs.base[key]) == 0
	if seed {
		cs.base[key] = append(cs.base[key], smps...)
	}
	cs.mu.Unlock()
	for _, smp := range smps {
		if seed {
			noise.add(level, b, score.InstructionsPerOp, smp.PerOp)
		}
	}
}

// sampler is the configuration's sampler, its runs' output directories
// in the engine's temporary directory when it has one (a killed run's are
// then removed with it).
func (e *Engine) sampler() instr.Sampler {
	sp := e.cfg.Counting.Sampler
	if e.Tmp != "" {
		sp.TempDir = e.Tmp
	}
	return sp
}

// benchSites finds a benchmark's baseline test binary and directory.
type benchSites struct {
	bins map[string]map[string]string // level -> package -> baseline test binary
	pkgs map[string]*mutate.Package   // the loaded packages by import path
}

// count is b in the baseline's test binary at level, or in bin.
func (s benchSites) count(level string, b Benchmark, bin string) instr.Bench {
	if bin == "" {
		bin = s.bins[level][b.Pkg]
	}
	return instr.Bench{Bin: bin, Dir: s.pkgs[b.Pkg].Dir, Pattern: b.Pattern()}
}

// baseCount returns the baseline's k-th counted sample of b at level,
// taking it when it is not cached yet (sampled with mut, when mut is not
// nil, at the same time: a count does not move with the load); each
// sample taken goes to noise.
func (cs *countState) baseCount(ctx context.Context, sp instr.Sampler, sites benchSites, noise *noiseState, level string, b Benchmark, k int) (instr.Sample, error) {
	key := itersKey(level, b)
	defer cs.keyLock(key)()
	n, _ := cs.itersOf(key)
	for len(cs.baseOf(key)) <= k {
		smp, err := sp.Sample(ctx, sites.count(level, b, ""), n)
		if err != nil {
			if ctx.Err() != nil {
				return smp, ctx.Err()
			}
			return smp, fmt.Errorf("baseline benchmark %s of %s failed while counting: %w", b.Name, b.Pkg, err)
		}
		cs.mu.Lock()
		cs.base[key] = append(cs.base[key], smp)
		cs.mu.Unlock()
		noise.add(level, b, score.InstructionsPerOp, smp.PerOp)
	}
	return cs.baseOf(key)[k], nil
}

// countRound takes one counted round of b: the baseline's cached sample
// of this round (taken now if not yet, beside the mutant's when the
// machine has two cores) and a sample of the mutant, unless its pre-count
// censored it. A failing mutant sample sets ms.lr's status.
func (ms *measurement) countRound(ctx context.Context, b Benchmark) error {
	e, s := ms.e, ms.series[b]
	level, k := ms.j.Level, s.rounds
	pre, err := ms.preCount(ctx, b)
	if err != nil || pre == nil {
		return err
	}
	// Decided once, on the pre-count's two-process count against the
	// baseline's median then (a one-process estimate never censors), so
	// that jobs adding baseline samples beside it do not change it.
	censored := pre.Censor
	var base, mut instr.Sample
	var baseErr, mutErr error
	cached := k < len(e.count.baseOf(itersKey(level, b)))
	countMut := ms.mutantCount(b) // reads the cache here, not beside baseCount
	if cached || censored || runtime.NumCPU() < 2 {
		base, baseErr = e.count.baseCount(ctx, e.sampler(), e.sites(), &e.noise, level, b, k)
		if !censored && baseErr == nil {
			mut, mutErr = countMut(ctx)
		}
	} else {
		done := make(chan struct{})
		go func() {
			defer close(done)
			mut, mutErr = countMut(ctx)
		}()
		base, baseErr = e.count.baseCount(ctx, e.sampler(), e.sites(), &e.noise, level, b, k)
		<-done
	}
	if baseErr != nil {
		return baseErr
	}
	if err := instr.WriteResult(ms.outs[0], b.Name, base); err != nil {
		return fmt.Errorf("writing the samples of %s: %w", ms.j.Mutant.ID, err)
	}
	vals := [2]map[string]float64{base.Values()}
	if censored {
		vals[1] = map[string]float64{score.InstructionsPerOp: pre.PerOp}
	} else if vals[1], err = ms.mutantValues(ctx, b, mut, mutErr, false); err != nil || vals[1] == nil {
		return err
	}
	ms.record(b, vals, censored)
	return nil
}

// preCount counts the mutant once before its first sample of b (cached
// for the job), one process against the baseline's count at the same
// iterations (instr.Sampler.PreCount): a mutant executing
// instr.CensorRatio times the baseline's median, on a two-process count,
// is censored in every round, without a run at N. nil without an error:
// the mutant failed (ms.lr's status is set).
func (ms *measurement) preCount(ctx context.Context, b Benchmark) (*instr.Pre, error) {
	e := ms.e
	if p := ms.pre[b]; p != nil {
		return p, nil
	}
	if _, err := e.count.baseCount(ctx, e.sampler(), e.sites(), &e.noise, ms.j.Level, b, 0); err != nil {
		return nil, err
	}
	pb, err := e.count.preBaseOf(ctx, e.sampler(), e.sites(), ms.j.Level, b)
	if err != nil {
		return nil, err
	}
	median := ms.baseMedian(b)
	sp := e.sampler()
	sp.Timeout = ms.countDeadline(b)
	p, err := sp.PreCount(ctx, e.sites().count(ms.j.Level, b, ms.j.MutBins[b.Pkg]), pb, median)
	timedOut := err != nil
	p, err = preTimedOut(ctx, p, err, median)
	timedOut = timedOut && err == nil
	if _, err := ms.mutantValues(ctx, b, instr.Sample{}, err, true); err != nil || ms.lr.Status != "" {
		return nil, err
	}
	line := fmt.Sprintf("# pre-count of %s: %s", b.Name, p)
	if timedOut {
		line = fmt.Sprintf("# pre-count of %s ran past its deadline at 1/64 of a sample's work: censored in every round", b.Name)
	} else if p.Censor {
		line += fmt.Sprintf(", at least %d x the baseline's median %.1f: censored in every round", instr.CensorRatio, median)
	}
	if _, err := fmt.Fprintln(ms.outs[1], line); err != nil {
		return nil, fmt.Errorf("writing the samples of %s: %w", ms.j.Mutant.ID, err)
	}
	ms.pre[b] = &p
	return &p, nil
}

// preBaseOf is the baseline's count of b at level at the pre-count's
// run (instr.PreIters of the samples' count), taken once.
func (cs *countState) preBaseOf(ctx context.Context, sp instr.Sampler, sites benchSites, level string, b Benchmark) (instr.PreBase, error) {
	key := itersKey(level, b)
	defer cs.keyLock(key)()
	cs.mu.Lock()
	pb, ok := cs.preBase[key]
	cs.mu.Unlock()
	if ok {
		return pb, nil
	}
	n, _ := cs.itersOf(key)
	pb, err := sp.PreBaseline(ctx, sites.count(level, b, ""), instr.PreIters(n))
	if err != nil {
		if ctx.Err() != nil {
			return pb, ctx.Err()
		}
		return pb, fmt.Errorf("baseline benchmark %s of %s failed while counting: %w", b.Name, b.Pkg, err)
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.preBase == nil {
		cs.preBase = map[string]instr.PreBase{}
	}
	cs.preBase[key] = pb
	return pb, nil
}

// mutantCount returns what counts the mutant's sample of b, with a
// deadline of 10 times the slowest baseline sample's wall time so far (at
// least a minute): a safety net, since the pre-count already caught a
// mutant that executes far more. It reads the cache now, so that the
// count may run beside baseCount.
func (ms *measurement) mutantCount(b Benchmark) func(context.Context) (instr.Sample, error) {
	e := ms.e
	key := itersKey(ms.j.Level, b)
	sp := e.sampler()
	sp.Timeout = ms.countDeadline(b)
	n, _ := e.count.itersOf(key)
	bench := e.sites().count(ms.j.Level, b, ms.j.MutBins[b.Pkg])
	return func(ctx context.Context) (instr.Sample, error) { return sp.Sample(ctx, bench, n) }
}

// countDeadline is the deadline of each valgrind process of a mutant's
// count of b: 10 times the slowest baseline sample's wall time so far,
// times the ratio of the mutant's pre-count to the baseline's median where
// it is above 1, at least a minute. So a deadline scales with the work the
// count found, not only with the clock: a mutant that executes twice the
// baseline's instructions keeps its margin of 10 against a machine whose
// clock runs up to 10 times slower than when the baseline was counted.
// The pre-count itself (1/64 of a sample's work) has the deadline without
// the ratio.
func (ms *measurement) countDeadline(b Benchmark) time.Duration {
	var slowest time.Duration
	for _, s := range ms.e.count.baseOf(itersKey(ms.j.Level, b)) {
		slowest = max(slowest, s.Elapsed)
	}
	return deadlineFor(slowest, ms.preRatio(b), ms.e.count.floor)
}

// deadlineFor is countDeadline for the slowest baseline sample's wall
// time and the mutant's pre-count ratio, at least floor (0: a minute).
func deadlineFor(slowest time.Duration, ratio float64, floor time.Duration) time.Duration {
	if floor == 0 {
		floor = time.Minute
	}
	d := 10 * slowest
	if ratio > 1 && !math.IsInf(ratio, 0) {
		d = time.Duration(float64(d) * ratio)
	}
	return max(d, floor)
}

// preRatio is the ratio of the mutant's pre-count of b to the baseline's
// median, or 1 before the pre-count.
func (ms *measurement) preRatio(b Benchmark) float64 {
	p, median := ms.pre[b], ms.baseMedian(b)
	if p == nil || !(median > 0) {
		return 1
	}
	return p.PerOp / median
}

// preTimedOut turns a pre-count that ran past its deadline into a
// censored one: it ran 1/64 of a sample's work for longer than 10 of the
// baseline's whole samples, so it executes hundreds of times the
// baseline's instructions unless the clock slowed as much; a clock that
// runs a few times slower must not make such a mutant a timeout. Its
// count is taken as CensorRatio times the baseline's median, a lower
// bound. Any other error is returned as it is.
func preTimedOut(ctx context.Context, p instr.Pre, err error, median float64) (instr.Pre, error) {
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "timed out after") {
		return p, err
	}
	return instr.Pre{PerOp: instr.CensorRatio * median, Censor: true}, nil
}

// mutantValues writes a mutant's counted sample to its samples file
// (not the pre-count, which has its own comment line) and returns its
// values; a failed sample sets ms.lr's status (Timeout when it ran past
// its deadline, else a benchmark failure) and returns nil.
func (ms *measurement) mutantValues(ctx context.Context, b Benchmark, smp instr.Sample, err error, pre bool) (map[string]float64, error) {
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		st := score.FNE
		if strings.Contains(err.Error(), "timed out after") {
			st = score.Timeout
		}
		ms.lr.Status, ms.lr.Reason = st, fmt.Sprintf("benchmark %s under valgrind: %v", b.Name, err)
		ms.lr.Benchmarks = []score.TestResult{}
		return nil, nil
	}
	if !pre {
		if err := instr.WriteResult(ms.outs[1], b.Name, smp); err != nil {
			return nil, fmt.Errorf("writing the samples of %s: %w", ms.j.Mutant.ID, err)
		}
	}
	return smp.Values(), nil
}

// baseMedian is the median instructions/op of the baseline's counted
// samples of b so far.
func (ms *measurement) baseMedian(b Benchmark) float64 {
	var v []float64
	for _, s := range ms.e.count.baseOf(itersKey(ms.j.Level, b)) {
		v = append(v, s.PerOp)
	}
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return (v[(len(v)-1)/2] + v[len(v)/2]) / 2
}

// keyLock locks the key lock of key and returns its unlock.
func (cs *countState) keyLock(key string) func() {
	cs.mu.Lock()
	if cs.keys == nil {
		cs.keys = map[string]*sync.Mutex{}
	}
	l := cs.keys[key]
	if l == nil {
		l = &sync.Mutex{}
		cs.keys[key] = l
	}
	cs.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// itersOf is the cached iteration count of key.
func (cs *countState) itersOf(key string) (int, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	n, ok := cs.iters[key]
	return n, ok
}

// baseOf is the baseline's cached samples of key so far (samples are
// only appended: the slice stays valid).
func (cs *countState) baseOf(key string) []instr.Sample {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.base[key]
}

// hasFailed reports whether key's baseline cannot be counted.
func (cs *countState) hasFailed(key string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.failed[key]
}

// CountedOnly reports whether every benchmark job j may be measured on
// is counted, with its iteration counts and the baseline's first counted
// sample already taken: its measurement then runs no process whose value
// the load changes, so it may run beside builds, tests and other such
// jobs (docs/instructions.md, "Measuring in parallel"). A job for which
// this is false is measured alone: the caller must not run it beside any
// other Measure, since its wall-time rounds write the engine's iteration
// cache, which counted jobs read without a lock.
func (e *Engine) CountedOnly(j *Job) bool {
	cands, ok := e.countCandidates(j)
	if !ok {
		return false
	}
	for _, b := range cands {
		key := itersKey(j.Level, b)
		if _, ok := e.count.itersOf(key); !ok || len(e.count.baseOf(key)) == 0 {
			return false
		}
	}
	return true
}

// PrepareCounts takes what CountedOnly waits for: the counted iteration
// count and the baseline's first counted sample of each benchmark j may be
// measured on, when every one of them is counted and its time-mode
// iteration count is known (Iters, taken alone beforehand). These are
// counts, which the load does not change, so it may run beside builds,
// tests and other counted jobs; a benchmark valgrind cannot count goes to
// wall time (countable), and j then stays a job measured alone. The error
// is ctx's.
func (e *Engine) PrepareCounts(ctx context.Context, j *Job) error {
	cands, ok := e.countCandidates(j)
	if !ok {
		return nil
	}
	for _, b := range cands {
		if _, _, err := e.countable(ctx, j.Level, b); err != nil {
			return err
		}
	}
	return nil
}

// countCandidates returns the benchmarks j may be measured on, and
// whether each is counted (the operator's cost, no failed baseline count)
// with its time-mode iteration count known.
func (e *Engine) countCandidates(j *Job) ([]Benchmark, bool) {
	if e.cfg.Counting == nil {
		return nil, false
	}
	op := j.Mutant.Op
	cands := candidates(op, j.Benches, j.Pool, func(pkg string) bool { return j.MutBins[pkg] != "" })
	if len(cands) == 0 {
		return nil, false
	}
	for _, b := range cands {
		key := itersKey(j.Level, b)
		if _, timed := e.itc[key]; !timed || !e.count.counted(&e.cfg, e.pkgs, op, b) || e.count.hasFailed(key) {
			return nil, false
		}
	}
	return cands, true
}

// BaselineCounts returns the baseline's cached instructions/op samples of
// each benchmark the campaign counted at level (-measure instructions), in
// the order taken; nil when it counted none. The detectability map takes
// the counted benchmarks' detectable ratios from them.
func (e *Engine) BaselineCounts(level string) map[Benchmark][]float64 {
	e.count.mu.Lock()
	defer e.count.mu.Unlock()
	var out map[Benchmark][]float64
	for key, smps := range e.count.base {
		// itersKey: level, package, name, GOMAXPROCS.
		parts := strings.Split(key, "\x00")
		if len(parts) != 4 || parts[0] != level || len(smps) == 0 {
			continue
		}
		cpu, err := strconv.Atoi(parts[3])
		if err != nil {
			continue
		}
		if out == nil {
			out = map[Benchmark][]float64{}
		}
		vals := make([]float64, len(smps))
		for i, s := range smps {
			vals[i] = s.PerOp
		}
		out[Benchmark{Pkg: parts[1], Name: parts[2], CPU: cpu}] = vals
	}
	return out
}
