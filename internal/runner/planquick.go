package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// quickTimingBudget bounds the timed builds and test runs of a quick plan:
// packages are timed, most mutants first, until it is spent (at least one).
const quickTimingBudget = 45 * time.Second

// QuickPlan estimates what the campaign will cost, as Plan does, without
// its baseline steps: from the mutants, the benchmarks and tests found in
// the source (scanSource: which functions each may run), and a few timed
// builds and test runs (QuickTimingBudget). The report's Quick part gives
// the bounds of the estimate; see the field docs of results.QuickPlan.
//
// The likely case: a mutant is measured if a benchmark of a package that
// imports its package (or of its own) names its function, directly or
// not, on min(MaxBenchmarks, those benchmarks) for the rounds Plan
// assumes; it is built once for its own package and once for each
// importer whose benchmarks or tests reach it, each build costing the
// median timed mutant build; it runs the tests that reach it. Times of
// packages not timed are the timed ones' median; the noopt level is
// assumed to cost what opt costs.
func (c *Campaign) QuickPlan(ctx context.Context, within time.Duration) (*results.Plan, error) {
	start := time.Now()
	r, done, err := c.planRun(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	c = r.c
	mutated := map[string]bool{}
	for _, m := range c.Mutants {
		mutated[m.Package] = true
	}
	pkgs, err := r.judgingPackages(mutated)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	g := scanSource(c.Packages)
	qs := c.quickJudging(g, r.base.affected)
	r.Prog.Logf("perfmut: quick plan: %s and %s found in the source, what each reaches in %s; timing builds", english.Plural(countRoots(g.Benches), "benchmark"),
		english.Plural(countRoots(g.Tests), "test"), time.Since(t0).Round(time.Millisecond))
	timed, err := quickTimer{r.c, r.Engine, r.pkgs, r.base.affected}.timePackages(ctx, g, qs, quickTimingBudget)
	if err != nil {
		return nil, err
	}
	est := newQuickCosts(c, g, timed)
	p := &results.Plan{Module: c.Module.Path, Mutants: len(c.Mutants), Levels: c.Levels, Jobs: c.Jobs, ByLevel: map[string]results.PlanLevel{},
		Quick: &results.QuickPlan{Low: map[string]results.PlanLevel{}, High: map[string]results.PlanLevel{},
			Benchmarks: countRoots(g.Benches), Tests: countRoots(g.Tests), Timed: timed}}
	p.Baseline = est.baseline(pkgs, len(c.Levels))
	base := p.Baseline.BuildTestSeconds + p.Baseline.BenchCoverageSeconds + p.Baseline.TestCoverageSeconds
	rest := map[string]float64{}
	for _, level := range c.Levels {
		for _, cs := range []string{"low", "likely", "high"} {
			pl, work, measure := est.level(qs, cs)
			rest[cs] += work/float64(c.Jobs) + measure
			switch cs {
			case "low":
				p.Quick.Low[level] = pl
			case "likely":
				p.ByLevel[level] = pl
			case "high":
				p.Quick.High[level] = pl
			}
		}
	}
	p.WallSeconds, p.Quick.WallLow, p.Quick.WallHigh = base+rest["likely"], base+rest["low"], base+rest["high"]
	if within > 0 {
		// Every shard repeats the baseline steps. When they alone are
		// estimated to take longer than within, no count fits: the one
		// given makes each shard's mutants fit within.
		room := within.Seconds() - base
		if room <= 0 {
			room, p.Quick.NoFit = within.Seconds(), true
		}
		p.Within = within.String()
		p.Shards = max(1, int(math.Ceil(rest["likely"]/room)))
		p.Quick.ShardsHigh = max(1, int(math.Ceil(rest["high"]/room)))
	}
	p.Quick.Seconds = time.Since(start).Seconds()
	return p, nil
}

func countRoots(m map[string][]srcRoot) int {
	n := 0
	for _, rs := range m {
		n += len(rs)
	}
	return n
}

// quickMutant is what the source says of one mutant: likely (by names) and
// at most, the benchmarks that reach it, the test binaries built for it and
// the tests it runs.
type quickMutant struct {
	m                  mutate.Mutant
	inert, inferred    bool
	benches, benchesHi int
	builds, buildsHi   int
	tests, testsHi     int
	testPkgs, pkgsHi   int // packages whose tests run
}

// quickJudging finds, for each mutant, the benchmarks, tests and builds
// that judge it by the source (see scanSource); affected maps each
// mutated package to it and the loaded packages importing it.
func (c *Campaign) quickJudging(g *srcGraph, affected map[string][]string) []quickMutant {
	reach := map[int]reachSet{}
	reached := func(root srcRoot, key string) bool {
		id, ok := g.IDs[key]
		if !ok {
			return false
		}
		s, ok := reach[root.ID]
		if !ok {
			s = g.Reach(root.ID)
			reach[root.ID] = s
		}
		return s.Has(id)
	}
	sub := map[string]string{}
	if c.Infer {
		sub = subsumers(c.Mutants)
	}
	qs := make([]quickMutant, len(c.Mutants))
	for i, m := range c.Mutants {
		q := quickMutant{m: m, inert: c.untested(m), inferred: sub[m.ID] != ""}
		key := srcKey(m.Package, m.Function)
		benchOnly := 0
		for _, pkg := range affected[m.Package] {
			if !g.TestFiles[pkg] {
				continue
			}
			benched := false
			for _, b := range g.Benches[pkg] {
				q.benchesHi++
				if reached(b, key) {
					q.benches++
					benched = true
				}
			}
			q.buildsHi++
			n := 0
			if !q.inert {
				q.pkgsHi++
				q.testsHi += len(g.Tests[pkg])
				for _, t := range g.Tests[pkg] {
					if reached(t, key) {
						n++
					}
				}
			}
			switch {
			case n > 0:
				q.tests += n
				q.testPkgs++
				q.builds++
			case benched:
				benchOnly++
			}
		}
		// The campaign builds the packages of the benchmarks it keeps
		// (at most MaxBenchmarks) and those whose tests run.
		if mb := c.MaxBenchmarks; mb > 0 {
			benchOnly = min(benchOnly, mb)
		}
		q.builds += benchOnly
		if q.benchesHi == 0 {
			q.buildsHi, q.testsHi, q.pkgsHi = min(q.buildsHi, q.builds), q.tests, q.testPkgs
		}
		qs[i] = q
	}
	return qs
}

// quickTimer times builds and test runs for the quick plan.
type quickTimer struct {
	c        *Campaign
	e        *engine.Engine
	pkgs     map[string]*mutate.Package // the loaded packages by import path
	affected map[string][]string        // mutated package -> it and the loaded packages importing it
}

// timePackages times, for the mutated packages most of whose mutants are
// built first, a first build of a test binary, a mutant's build, a run of
// the binary's tests and of no test, until budget is spent.
func (t quickTimer) timePackages(ctx context.Context, g *srcGraph, qs []quickMutant, budget time.Duration) ([]results.TimedPackage, error) {
	first := map[string]mutate.Mutant{}
	count := map[string]int{}
	for _, q := range qs {
		if q.builds == 0 {
			continue
		}
		bin := q.m.Package
		if !g.TestFiles[bin] {
			for _, p := range t.affected[q.m.Package] {
				if g.TestFiles[p] {
					bin = p
					break
				}
			}
		}
		if !g.TestFiles[bin] {
			continue
		}
		if count[bin] == 0 {
			first[bin] = q.m
		}
		count[bin]++
	}
	order := make([]string, 0, len(count))
	for p := range count {
		order = append(order, p)
	}
	sort.Slice(order, func(i, j int) bool {
		if count[order[i]] != count[order[j]] {
			return count[order[i]] > count[order[j]]
		}
		return order[i] < order[j]
	})
	deadline := time.Now().Add(budget)
	var out []results.TimedPackage
	for _, pkg := range order {
		if len(out) > 0 && time.Now().After(deadline) {
			break
		}
		// A build the budget stops is kept, as a lower bound, only if
		// no package was timed before it.
		tctx, cancel := context.WithDeadline(ctx, deadline)
		tp, err := t.timePackage(tctx, pkg, first[pkg], len(g.Tests[pkg]), deadline)
		cancel()
		if err != nil {
			return nil, err
		}
		if tp != nil && (!tp.BuildStopped || len(out) == 0) {
			out = append(out, *tp)
		}
		if tp != nil && tp.BuildStopped {
			break
		}
	}
	return out, nil
}

// timePackage builds pkg's test binary, then with m's overlay, and runs
// its tests (until deadline, if it has any) and no test; nil if the
// baseline's test binary does not build.
func (t quickTimer) timePackage(ctx context.Context, pkg string, m mutate.Mutant, tests int, deadline time.Time) (*results.TimedPackage, error) {
	dir, err := os.MkdirTemp(t.e.Tmp, "quick-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	level := t.c.Levels[0]
	bin := filepath.Join(dir, "base.test")
	t0 := time.Now()
	ok, err := t.e.GoTestC(ctx, t.c.Module.Dir, pkg, bin, "", level)
	tp := &results.TimedPackage{Package: pkg, FirstBuildSeconds: time.Since(t0).Seconds()}
	if stopped(ctx, err) {
		tp.MutantBuildSeconds, tp.BuildStopped = tp.FirstBuildSeconds, true
		return tp, nil
	}
	if errors.As(err, new(*engine.BuildError)) || (err == nil && !ok) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	files, err := t.c.Overlay(m)
	if err != nil {
		return nil, fmt.Errorf("mutant %s: %w", m.ID, err)
	}
	overlay, _, err := engine.WriteOverlay(dir, t.c.Module.Dir, uncached(files))
	if err != nil {
		return nil, err
	}
	t0 = time.Now()
	_, err = t.e.GoTestC(ctx, t.c.Module.Dir, pkg, filepath.Join(dir, "m.test"), overlay, level)
	tp.MutantBuildSeconds = time.Since(t0).Seconds()
	if stopped(ctx, err) {
		tp.BuildStopped = true
		return tp, nil
	}
	if err != nil && !errors.As(err, new(*engine.BuildError)) {
		return nil, err
	}
	pdir := t.pkgs[pkg].Dir
	res, err := proc.Run(ctx, pdir, nil, time.Minute, bin, "-test.run=^$", "-test.bench=^$")
	if err != nil {
		return nil, err
	}
	if res.Canceled {
		return budgetOrErr(ctx, tp)
	}
	tp.StartSeconds = res.Elapsed.Seconds()
	if left := min(time.Until(deadline), quickTimingBudget/4); tests > 0 && left > time.Second {
		res, err := proc.Run(ctx, pdir, nil, left, bin, "-test.bench=^$")
		if err != nil {
			return nil, err
		}
		if res.Canceled {
			return budgetOrErr(ctx, tp)
		}
		tp.TestSeconds, tp.TestsTimedOut = res.Elapsed.Seconds(), res.TimedOut
	}
	return tp, nil
}

// stopped reports whether err ended a timed build because ctx's deadline
// (the timing budget) passed, not because the plan was interrupted.
func stopped(ctx context.Context, err error) bool {
	return err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)
}

// budgetOrErr is what timePackage returns when ctx ended a run: tp, as
// far as it got, if the timing budget ran out; the error if the plan was
// interrupted.
func budgetOrErr(ctx context.Context, tp *results.TimedPackage) (*results.TimedPackage, error) {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return tp, nil
	}
	return nil, ctx.Err()
}
