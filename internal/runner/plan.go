package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// Plan runs the campaign's baseline steps (builds and tests of every
// judging package, benchmark and test coverage) and, without building any
// mutant, estimates what the whole campaign will cost: per level, how many
// mutants will be built, tested and measured, and the summed build, test
// and measurement times, from the baseline's own times. within > 0 also
// gives the -shard count whose shards each fit within.
//
// The estimate assumes every measured mutant of an inert operator
// (mutate.Operator.Inert) is decided at the first look (MinSamples rounds)
// with its samples running to the censoring cap, and every other one at
// the second look (twice as many rounds) at the baseline's speed; that
// the larger sizes at a site whose smallest is measured are killed by
// inference (-infer); that it is measured on the benchmarks
// chooseBenchmarks keeps; that each mutant build costs what one real mutant build of its package
// cost, alone, times the number of builds sharing the CPUs. Equivalent and
// duplicate mutants are not foreseen: the estimate is an upper bound there.
func (c *Campaign) Plan(ctx context.Context, within time.Duration) (*results.Plan, error) {
	r, done, err := c.planRun(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	c = r.c
	todo := make([]int, len(c.Mutants))
	for i := range todo {
		todo[i] = i
	}
	if err := r.baseline(ctx, todo); err != nil {
		return nil, err
	}
	p := &results.Plan{Module: c.Module.Path, Mutants: len(c.Mutants), Levels: c.Levels, Jobs: c.Jobs,
		Baseline: r.base.times, ByLevel: map[string]results.PlanLevel{}}
	subsumer := map[string]string{}
	if c.Infer {
		subsumer = subsumers(c.Mutants)
	}
	var work float64 // builds and tests
	var measure float64
	for _, level := range c.Levels {
		pl, err := r.planLevel(ctx, level, subsumer)
		if err != nil {
			return nil, err
		}
		p.ByLevel[level] = pl
		work += pl.BuildSeconds + pl.TestSeconds
		measure += pl.MeasureSeconds
	}
	base := r.base.times.BuildTestSeconds + r.base.times.BenchCoverageSeconds + r.base.times.TestCoverageSeconds
	rest := work/float64(c.Jobs) + measure
	p.WallSeconds = base + rest
	if within > 0 {
		if within.Seconds() <= base {
			return nil, inputerr.Errorf("-within %s is shorter than the baseline steps alone (%s), which every shard repeats", within, time.Duration(base*float64(time.Second)).Round(time.Second))
		}
		p.Within = within.String()
		p.Shards = max(1, int(math.Ceil(rest/(within.Seconds()-base))))
	}
	return p, nil
}

// planLevel is the expected cost of the campaign's mutants at level, from
// the baseline and one sample build per mutated package (subsumer: the
// mutants inferred from a smaller one, not measured).
func (r *run) planLevel(ctx context.Context, level string, subsumer map[string]string) (results.PlanLevel, error) {
	var pl results.PlanLevel
	tuned := map[string]bool{}          // benchmarks whose N is found once per level
	built := map[string]time.Duration{} // mutated package -> one mutant's build time
	for _, m := range r.c.Mutants {
		sel, tests, err := r.selection(m)
		if err != nil {
			return pl, err
		}
		full := sel
		sel = limitSelection(sel, r.c.MaxBenchmarks)
		if len(sel.Benches) == 0 && !tests.runs() {
			pl.NotBuilt++
			continue
		}
		pl.Built++
		bt, err := r.sampleBuild(ctx, level, m, built)
		if err != nil {
			return pl, err
		}
		pl.BuildSeconds += float64(len(r.judges(m, sel, tests))) * bt.Seconds()
		if tests.runs() {
			pl.Tested++
			pl.TestSeconds += r.testCost(level, tests).Seconds()
		}
		if len(sel.Benches) == 0 {
			continue
		}
		if subsumer[m.ID] != "" {
			pl.Inferred++
			continue
		}
		rounds, secs := r.planMeasure(ctx, level, m, sel, full, r.judges(m, sel, tests), tuned)
		pl.Measured++
		pl.MeasureRounds += rounds
		pl.MeasureSeconds += secs
	}
	if pl.Measured > 0 {
		pl.MeasureRounds /= float64(pl.Measured)
	}
	// The sample build ran alone; Jobs builds and tests at once share
	// the CPUs and each takes about that many times longer.
	share := float64(min(r.c.Jobs, runtime.NumCPU()))
	pl.BuildSeconds *= share
	pl.TestSeconds *= share
	return pl, nil
}

// planRun checks a copy of c for a plan (Plan, QuickPlan) and returns the
// run that makes it, with its temporary directory; done ends it.
func (c *Campaign) planRun(ctx context.Context) (r *run, done func(), err error) {
	cc := *c
	c = &cc
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	c.RecordSettings(ctx)
	if len(c.Mutants) == 0 {
		return nil, nil, errors.New("no mutants to plan for")
	}
	r = newRun(c)
	r.Prog = engine.NewProgress(c.Log, c.Progress, 0)
	if err := r.makeTemp(); err != nil {
		r.Prog.End()
		os.RemoveAll(r.Tmp)
		return nil, nil, err
	}
	return r, func() { r.Prog.End(); os.RemoveAll(r.Tmp) }, nil
}

// planMeasure is the expected measurement of mutant m at level on the
// benchmarks chooseBenchmarks keeps of its candidates (sel: those
// -max-benchmarks kept; full: all reaching it; built: the packages whose
// mutant binaries are built): the rounds (see Plan) and the seconds,
// including the step that finds N of each benchmark not yet in tuned (it
// times one whole baseline sample, process start included; the campaign
// does it anyway).
func (r *run) planMeasure(ctx context.Context, level string, m mutate.Mutant, sel, full engine.Selection, built map[string]bool, tuned map[string]bool) (rounds, secs float64) {
	op := m.Op
	inert := op != nil && op.Inert
	rounds = float64(2 * r.c.Rule.MinSamples)
	if inert {
		rounds = float64(r.c.Rule.MinSamples)
	}
	order, runs, its := r.Order(ctx, level, op, engine.WithCPUs(sel.Benches, r.c.CPU), engine.WithCPUs(full.Benches, r.c.CPU),
		engine.HeatByBench(full), func(pkg string) bool { return built[pkg] })
	for _, b := range runs {
		if k := b.Pkg + "\x00" + b.CPUName(); !tuned[k] {
			tuned[k] = true
			secs += 2 * its[b].Wall.Seconds()
		}
	}
	for _, b := range order {
		it := its[b]
		s := it.Wall.Seconds()
		// A round is a baseline and a mutant sample. An inert operator's
		// mutant is assumed slow enough to run until it is censored (an
		// upper bound for small injections).
		mut := s
		if cap := r.c.CensorCap(it, it.Wall); inert && cap > 0 {
			mut = cap.Seconds()
		}
		secs += rounds * (s + mut)
	}
	return rounds, secs
}

// sampleBuild is the time one real mutant build of m's package takes at
// level: the first time it is asked for a package, m's test binary is
// built with its overlay (and discarded), as a campaign builds it.
func (r *run) sampleBuild(ctx context.Context, level string, m mutate.Mutant, built map[string]time.Duration) (time.Duration, error) {
	if d, ok := built[m.Package]; ok {
		return d, nil
	}
	dir, err := os.MkdirTemp(r.Tmp, "plan-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	files, err := r.c.Overlay(m)
	if err != nil {
		return 0, fmt.Errorf("mutant %s: %w", m.ID, err)
	}
	overlay, _, err := engine.WriteOverlay(dir, r.c.Module.Dir, uncached(files))
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if r.base.hasTests[m.Package] {
		_, err = r.GoTestC(ctx, r.c.Module.Dir, m.Package, filepath.Join(dir, "m.test"), overlay, level)
	} else {
		err = r.GoBuild(ctx, r.c.Module.Dir, m.Package, overlay, level)
	}
	d := time.Since(start)
	var be *engine.BuildError
	if err != nil && !errors.As(err, &be) {
		return 0, err
	}
	built[m.Package] = d
	return d, nil
}

// testCost is the expected time of a mutant's functional filter: the
// package's whole baseline test time where all its tests run, else one
// process running the selected tests. Each test's coverage run was a
// process of its own: the quickest of the package's runs counts as the
// process's start (and TestMain), once, and each selected test adds what
// its run took beyond it.
func (r *run) testCost(level string, tests testSelection) time.Duration {
	var d time.Duration
	for pkg, names := range tests {
		tc := r.cov.tests[pkg]
		if names == nil || tc == nil {
			d += r.base.testTime[level][pkg]
			continue
		}
		start := time.Duration(-1)
		for _, t := range tc.Time {
			if start < 0 || t < start {
				start = t
			}
		}
		start = max(start, 0)
		d += start
		for _, n := range names {
			d += max(0, tc.Time[n]-start)
		}
	}
	return d
}

// PlanMode is the value of run's -plan flag: "" (no plan), "quick" (-plan,
// QuickPlan) or "exact" (-plan=exact, Plan). It is a boolean flag: -plan
// alone asks for the quick plan.
type PlanMode string

// Plan modes.
const (
	planQuick PlanMode = "quick"
	planExact PlanMode = "exact"
)

func (p *PlanMode) String() string { return string(*p) }

// IsBoolFlag lets -plan stand alone (flag.Value).
func (p *PlanMode) IsBoolFlag() bool { return true }

// Set parses -plan's value: true or quick, exact, false.
func (p *PlanMode) Set(s string) error {
	switch s {
	case "true", "quick":
		*p = planQuick
	case "exact":
		*p = planExact
	case "false", "":
		*p = ""
	default:
		return fmt.Errorf("bad -plan=%s: want -plan (quick: from the source and a few timed builds) or -plan=exact (after the baseline steps)", s)
	}
	return nil
}

// On reports whether a plan is asked for.
func (p PlanMode) On() bool { return p != "" }

// Plan makes the plan of c the mode asks for.
func (p PlanMode) Plan(ctx context.Context, c *Campaign, within time.Duration) (*results.Plan, error) {
	if p == planExact {
		return c.Plan(ctx, within)
	}
	return c.QuickPlan(ctx, within)
}

// uncached returns copies of overlay files with a comment that makes them
// unlike any built before: a timed build of a mutant that an earlier plan
// or campaign built would otherwise come from the build cache.
func uncached(files map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(files))
	stamp := fmt.Sprintf("\n// perfmut plan %d\n", time.Now().UnixNano())
	for name, src := range files {
		out[name] = append(slices.Clip(src), stamp...)
	}
	return out
}
