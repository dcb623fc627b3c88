package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// mutants runs the mutants todo (indexes into c.Mutants): up to Jobs
// workers build them and run their tests in parallel; one measurer
// measures them (measureQueue).
func (r *run) mutants(ctx context.Context, todo []int) error {
	c := r.c
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if c.Isolate == isolateCopy {
		if err := r.makeSlots(ctx); err != nil {
			return err
		}
	}
	queue := make(chan *measureJob, queueLen*c.Jobs)
	r.builders = newBuilders()
	var mwg sync.WaitGroup
	mwg.Add(1)
	go func() {
		defer mwg.Done()
		r.measureQueue(ctx, cancel, queue)
	}()
	err := r.Parallel(ctx, len(todo), func(k int) error {
		r.builders.add(1)
		defer r.builders.add(-1)
		return r.mutant(ctx, c.Mutants[todo[k]], todo[k], queue)
	})
	close(queue)
	mwg.Wait()
	if err == nil {
		err = context.Cause(ctx)
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// queueLen is how many measurement jobs per worker the builders may build
// ahead of the measurer: the size of a burst of builds (see builders).
const queueLen = 4

// measureQueue measures the jobs of queue until it is closed. A job that
// samples wall time is measured alone: it holds quiet for writing, so no
// build, test or other measurement runs beside it. It waits for the
// builders to be idle or the queue to be full, and then measures, in the
// same quiet period, every job queued meanwhile (measureBurst). A job measured on
// instruction counts only (Engine.CountedOnly), whose values the load does
// not change, holds quiet for reading: it runs beside builds, tests and
// up to NumCPU-1 other such jobs; the counts it needs first (the
// baseline's iteration count and first sample: Engine.PrepareCounts) are
// taken beside them too. An error cancels the run.
func (r *run) measureQueue(ctx context.Context, cancel context.CancelCauseFunc, queue <-chan *measureJob) {
	counted := make(chan struct{}, max(1, runtime.NumCPU()))
	var cwg sync.WaitGroup
	defer cwg.Wait()
	var pending *measureJob // a job measureBurst took and left
	for {
		j, ok := pending, pending != nil
		if pending = nil; !ok {
			if j, ok = <-queue; !ok {
				return
			}
		}
		if ctx.Err() != nil {
			j.cleanup()
			continue
		}
		if !r.CountedOnly(&j.Job) && r.c.Counting != nil {
			// Its counts' set-up (counts: beside the others).
			r.quiet.RLock()
			err := r.PrepareCounts(ctx, &j.Job)
			r.quiet.RUnlock()
			if err != nil {
				j.cleanup()
				cancel(err)
				continue
			}
		}
		if !r.CountedOnly(&j.Job) {
			r.builders.waitIdle(func() bool { return len(queue) >= cap(queue) })
			r.quiet.Lock()
			r.measureJob(ctx, cancel, j)
			pending = r.measureBurst(ctx, cancel, queue)
			r.quiet.Unlock()
			continue
		}
		counted <- struct{}{}
		r.quiet.RLock()
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			r.measureJob(ctx, cancel, j)
			r.quiet.RUnlock()
			<-counted
		}()
	}
}

// measureBurst measures, under the quiet lock the caller holds, the jobs
// waiting in queue, until it is empty. It returns, unmeasured, the first
// job that is not for it: one that counts instructions (its counts are
// prepared beside builds), or any once ctx is done; nil when none.
func (r *run) measureBurst(ctx context.Context, cancel context.CancelCauseFunc, queue <-chan *measureJob) *measureJob {
	for {
		select {
		case j, ok := <-queue:
			if !ok {
				return nil
			}
			if ctx.Err() != nil || r.c.Counting != nil {
				return j
			}
			r.measureJob(ctx, cancel, j)
		default:
			return nil
		}
	}
}

// measureJob measures j and records its result; an error cancels the run.
func (r *run) measureJob(ctx context.Context, cancel context.CancelCauseFunc, j *measureJob) {
	mstart := time.Now()
	lr, err := r.Measure(ctx, &j.Job)
	mtime := time.Since(mstart)
	j.cleanup()
	if err != nil {
		cancel(err)
		return
	}
	// Build, tests and measurement; not the wait in the queue.
	lr.Seconds = (j.prep + mtime).Seconds()
	j.phases.measure = mtime
	j.phases.set(lr)
	r.mu.Lock()
	r.measured += mtime
	r.mu.Unlock()
	if err := r.record(j.Mutant, j.Level, lr); err != nil {
		cancel(err)
	}
}

// mutant builds and tests m at each level still to do, records the
// results that need no measurement, and queues the others.
func (r *run) mutant(ctx context.Context, m mutate.Mutant, idx int, queue chan<- *measureJob) error {
	c := r.c
	mr := &mutantRun{m: m, mdir: filepath.Join(r.Tmp, fmt.Sprintf("m%d", idx))}
	if err := os.MkdirAll(mr.mdir, 0o755); err != nil {
		return err
	}
	defer func() {
		go func() { mr.pending.Wait(); os.RemoveAll(mr.mdir) }()
	}()
	var err error
	if mr.files, err = c.Overlay(m); err != nil {
		return fmt.Errorf("mutant %s: %w", m.ID, err)
	}
	if mr.overlay, mr.names, err = engine.WriteOverlay(mr.mdir, c.Module.Dir, mr.files); err != nil {
		return err
	}
	if mr.sel, mr.tests, err = r.selection(m); err != nil {
		return err
	}
	mr.pool = engine.WithCPUs(mr.sel.Benches, c.CPU)
	mr.heat = engine.HeatByBench(mr.sel)
	mr.sel = limitSelection(mr.sel, c.MaxBenchmarks)
	for _, level := range c.Levels {
		r.mu.Lock()
		done := r.results[resultKey{m.ID, level}] != nil
		r.mu.Unlock()
		if done {
			continue
		}
		if err := r.mutantLevel(ctx, mr, level, queue); err != nil {
			return err
		}
	}
	return nil
}

// A mutantRun is what the levels of one mutant share.
type mutantRun struct {
	m       mutate.Mutant
	mdir    string             // its temporary directory, removed when pending is done
	pending sync.WaitGroup     // its levels queued for measurement
	files   map[string][]byte  // its files: absolute path -> content
	overlay string             // the go build -overlay JSON
	names   *strings.Replacer  // its temporary file names back to the module's, for messages
	sel     engine.Selection   // the benchmarks that judge it (at most MaxBenchmarks)
	tests   testSelection      // the tests that run on it
	pool    []engine.Benchmark // every benchmark that reaches it
	heat    map[engine.Benchmark]engine.BenchHeat
}

// mutantLevel builds and tests mr's mutant at level, then records its
// result or queues it for measurement.
func (r *run) mutantLevel(ctx context.Context, mr *mutantRun, level string, queue chan<- *measureJob) error {
	m, sel, tests := mr.m, mr.sel, mr.tests
	start := time.Now()
	if len(sel.Benches) == 0 && !tests.runs() {
		return r.record(m, level, r.notBuilt(m, sel))
	}
	ldir := filepath.Join(mr.mdir, level)
	if err := os.MkdirAll(ldir, 0o755); err != nil {
		return err
	}
	var ph phaseTimes
	build := r.judges(m, sel, tests)
	r.mu.Lock()
	if r.built == nil {
		r.built = map[string]map[string]bool{}
	}
	r.built[m.ID] = build
	r.mu.Unlock()
	if !tests.runs() {
		// No test runs on it (an inert injection): a kill inferred
		// from a cheaper injection at the site needs no build either.
		if lr := r.dedup.inferred(r.c, r.result, m, level); lr != nil {
			os.RemoveAll(ldir)
			lr.Seconds = time.Since(start).Seconds()
			return r.record(m, level, lr)
		}
	}
	bins, lr, err := r.buildAndTest(ctx, mr, level, ldir, build, r.sameCode(ctx, mr, level), &ph)
	if err != nil {
		return err
	}
	if lr = r.unmeasured(m, level, sel, lr); lr != nil {
		os.RemoveAll(ldir)
		lr.Seconds = time.Since(start).Seconds()
		ph.set(lr)
		if lr.Benchmarks == nil {
			lr.Benchmarks = []score.TestResult{}
		}
		return r.record(m, level, lr)
	}
	mr.pending.Add(1)
	j := &measureJob{Job: engine.Job{Mutant: m, Level: level, Benches: engine.WithCPUs(sel.Benches, r.c.CPU), Pool: mr.pool, Heat: mr.heat, Note: sel.Note, MutBins: bins, Out: r.c.Out}, prep: time.Since(start), phases: ph,
		cleanup: func() { os.RemoveAll(ldir); mr.pending.Done() }}
	r.builders.waiting(func() {
		select {
		case queue <- j:
		case <-ctx.Done():
			j.cleanup()
			err = ctx.Err()
		}
	})
	return err
}

// notBuilt is the result of a mutant that no benchmark and no test can
// see: nothing to build.
func (r *run) notBuilt(m mutate.Mutant, sel engine.Selection) *results.LevelResult {
	why := "; no test executes it either (not built)"
	if r.c.untested(m) {
		why = "; not built (inert operator: tests run on it only with -full-filter)"
	}
	return &results.LevelResult{Status: score.NoCoverage, Reason: sel.Reason + why, Benchmarks: []score.TestResult{}}
}

// sameCode is the check between build and tests: a mutant that compiles
// to the baseline's code, or to the code of a mutant seen before, needs
// neither tests nor measurement.
func (r *run) sameCode(ctx context.Context, mr *mutantRun, level string) func(bins map[string]string) (*results.LevelResult, error) {
	return func(bins map[string]string) (*results.LevelResult, error) {
		if len(mr.sel.Benches) == 0 || r.c.KeepEquivalent {
			return nil, nil
		}
		// objdump's work is perfmut's own: not beside a measurement.
		r.quiet.RLock()
		lr, print := r.tce.equivalent(ctx, r.Engine, r.base.inlineSymbols(mr.m.Package), r.base.bins[level], mr.m.Package, level, bins)
		r.quiet.RUnlock()
		if lr != nil || print == "" {
			return lr, nil
		}
		var err error
		r.builders.waiting(func() { lr, err = r.dedup.duplicate(ctx, r.result, mr.m, level, print) })
		return lr, err
	}
}

// unmeasured is the result of a mutant built and tested at level that
// needs no measurement: lr from its build and tests if any, else one
// that holds with -since, no coverage, or one inferred from a smaller
// injection killed at its site; nil if it must be measured.
func (r *run) unmeasured(m mutate.Mutant, level string, sel engine.Selection, lr *results.LevelResult) *results.LevelResult {
	if lr == nil {
		// -since: its benchmarks ran no changed code and its tests
		// passed again.
		lr = r.retested(m.ID, level)
	}
	if lr == nil && len(sel.Benches) == 0 {
		lr = &results.LevelResult{Status: score.NoCoverage, Reason: sel.Reason}
	}
	if lr == nil {
		// Built and passing its tests: a smaller injection killed at
		// the same site makes the measurement unnecessary.
		lr = r.dedup.inferred(r.c, r.result, m, level)
	}
	return lr
}

// buildAndTest builds the test binaries of mr's mutant at level and runs
// their tests. It returns the binaries by package, or a result if the
// mutant ends here (compile-error, fne, crash, timeout).
//
// It builds the test binaries of the packages in build (the mutated one,
// those whose tests run and those whose benchmarks measure it), asks
// sameCode whether the binaries end it before its tests (equivalent or
// duplicate), and runs the tests that mr.tests selects.
func (r *run) buildAndTest(ctx context.Context, mr *mutantRun, level, ldir string, build map[string]bool, sameCode func(map[string]string) (*results.LevelResult, error), ph *phaseTimes) (_ map[string]string, _ *results.LevelResult, err error) {
	c := r.c
	w := workTree{dir: c.Module.Dir, overlay: mr.overlay, names: mr.names, runDir: func(p *mutate.Package) string { return p.Dir }}
	if c.Isolate == isolateCopy {
		var slot string
		select {
		case slot = <-r.isolate.slots:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		restore, err := r.writeToSlot(slot, mr.files)
		if err != nil {
			r.releaseSlot(slot, restore())
			return nil, nil, err
		}
		defer func() {
			if rerr := r.releaseSlot(slot, restore()); rerr != nil && err == nil {
				err = rerr
			}
		}()
		w = workTree{dir: slot, names: strings.NewReplacer(slot+string(filepath.Separator), ""),
			runDir: func(p *mutate.Package) string { return r.inSlot(slot, p.Dir) }}
	}
	bins, lr, err := r.buildMutant(ctx, mr.m, level, ldir, w, build, ph)
	if lr != nil || err != nil {
		return nil, lr, err
	}
	if lr, err := sameCode(bins); lr != nil || err != nil {
		return bins, lr, err
	}
	lr, err = r.testMutant(ctx, mr.m, level, bins, w, mr.tests, ph)
	if lr != nil || err != nil {
		return nil, lr, err
	}
	return bins, nil, nil
}

// A workTree is where a mutant is built and its tests run: the module
// with the mutant's overlay, or (-isolate copy) a copy of the module with
// the mutant's files written into it.
type workTree struct {
	dir     string                       // where go builds
	overlay string                       // the go build -overlay JSON, or ""
	names   *strings.Replacer            // file names in compiler messages back to the module's
	runDir  func(*mutate.Package) string // where a package's tests run
}

// buildMutant builds m's test binaries at level in ldir for the packages
// in build that have tests, and checks that the mutated package compiles
// when none of them does. It returns the binaries by package, or a
// compile-error result.
func (r *run) buildMutant(ctx context.Context, m mutate.Mutant, level, ldir string, w workTree, build map[string]bool, ph *phaseTimes) (map[string]string, *results.LevelResult, error) {
	bins := map[string]string{}
	built := false
	for _, pkg := range r.base.affected[m.Package] {
		if !r.base.hasTests[pkg] || !build[pkg] {
			continue
		}
		bin := filepath.Join(ldir, engine.SafeName(pkg)+".test")
		r.quiet.RLock()
		t0 := time.Now()
		ok, err := r.GoTestC(ctx, w.dir, pkg, bin, w.overlay, level)
		ph.build += time.Since(t0)
		r.quiet.RUnlock()
		var be *engine.BuildError
		if errors.As(err, &be) {
			return nil, &results.LevelResult{Status: score.CompileError, Reason: w.names.Replace(be.Reason())}, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if ok {
			bins[pkg] = bin
			built = built || pkg == m.Package
		}
	}
	if !built {
		// No test binary compiles the mutated package itself: check that
		// it compiles.
		r.quiet.RLock()
		t0 := time.Now()
		err := r.GoBuild(ctx, w.dir, m.Package, w.overlay, level)
		ph.build += time.Since(t0)
		r.quiet.RUnlock()
		var be *engine.BuildError
		if errors.As(err, &be) {
			return nil, &results.LevelResult{Status: score.CompileError, Reason: w.names.Replace(be.Reason())}, nil
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return bins, nil, nil
}

// testMutant runs the tests that tests selects in m's binaries; a result
// if one fails (fne, crash, timeout).
func (r *run) testMutant(ctx context.Context, m mutate.Mutant, level string, bins map[string]string, w workTree, tests testSelection, ph *phaseTimes) (*results.LevelResult, error) {
	for _, pkg := range r.base.affected[m.Package] {
		bin := bins[pkg]
		if _, run := tests[pkg]; bin == "" || !run {
			continue
		}
		dir := w.runDir(r.pkgs[pkg])
		r.quiet.RLock()
		t0 := time.Now()
		fr := engine.FailedRun{Level: level, Pkg: pkg, Bin: bin, Dir: dir, Run: tests.args(pkg),
			Timeout: r.testTimeout(level, pkg), Base: r.base.bins[level][pkg], BaseDir: r.pkgs[pkg].Dir}
		out, err := r.RunTests(ctx, bin, dir, fr.Timeout, append(fr.Run, r.flaky.Skip(pkg)...)...)
		if err == nil {
			out, err = r.flaky.ConfirmFailure(ctx, r.Engine, fr, out, 0)
		}
		ph.test += time.Since(t0)
		r.quiet.RUnlock()
		if err != nil {
			return nil, err
		}
		if out.Status != "" {
			reason := out.Reason
			if pkg != m.Package {
				reason = pkg + ": " + reason
			}
			return &results.LevelResult{Status: out.Status, Reason: reason, Output: out.Output}, nil
		}
	}
	return nil, nil
}

// selection finds the benchmarks whose timed loop runs m's site and the
// tests that judge it.
func (r *run) selection(m mutate.Mutant) (engine.Selection, testSelection, error) {
	src, err := r.source(m.File)
	if err != nil {
		return engine.Selection{}, nil, err
	}
	scope := map[string]bool{}
	for _, p := range r.base.affected[m.Package] {
		scope[p] = true
	}
	pos := engine.MutantPositions(src, m)
	return engine.SelectBenchmarks(r.cov.benches, scope, engine.CoverFile(m), pos), r.cov.selectTests(r.c, &r.base, m, pos), nil
}

// judges is the set of packages whose test binaries m needs: the mutated
// package (its binary checks that it compiles), the packages whose tests
// run and those whose benchmarks measure it.
func (r *run) judges(m mutate.Mutant, sel engine.Selection, tests testSelection) map[string]bool {
	build := map[string]bool{m.Package: true}
	for pkg := range tests {
		build[pkg] = true
	}
	for _, b := range sel.Benches {
		build[b.Pkg] = true
	}
	return build
}

// source returns the original content of a module-relative file.
func (r *run) source(file string) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, ok := r.srcs[file]; ok {
		return b, nil
	}
	b, err := os.ReadFile(filepath.Join(r.c.Module.Dir, filepath.FromSlash(file)))
	if err != nil {
		return nil, fmt.Errorf("reading mutated file: %w", err)
	}
	r.srcs[file] = b
	return b, nil
}

// makeSlots makes Jobs private copies of the module for -isolate copy.
// Each worker reuses its copy (same path, so the build cache still skips
// the unchanged packages), writes a mutant into it, builds and tests, and
// restores the original files.
func (r *run) makeSlots(ctx context.Context) error {
	r.isolate.slots = make(chan string, r.c.Jobs)
	for i := 0; i < r.c.Jobs; i++ {
		dst := filepath.Join(r.Tmp, fmt.Sprintf("copy%d", i))
		if err := copyTree(r.c.Module.Dir, dst, r.c.Out); err != nil {
			return fmt.Errorf("-isolate copy: %w", err)
		}
		r.isolate.slots <- dst
	}
	return nil
}

// inSlot maps a path in the module to the same path in a copy.
func (r *run) inSlot(slot, path string) string {
	rel, err := filepath.Rel(r.c.Module.Dir, path)
	if err != nil {
		return path
	}
	return filepath.Join(slot, rel)
}

// writeToSlot writes a mutant's files into a module copy and returns the
// function that restores the copy; it restores what it wrote if it fails.
func (r *run) writeToSlot(slot string, files map[string][]byte) (restore func() error, err error) {
	var undo []func() error
	restore = func() error {
		var errs []error
		for _, u := range undo {
			errs = append(errs, u())
		}
		return errors.Join(errs...)
	}
	for path, content := range files {
		dst := r.inSlot(slot, path)
		orig, err := os.ReadFile(path)
		switch {
		case err == nil:
			undo = append(undo, func() error { return os.WriteFile(dst, orig, 0o644) })
		case errors.Is(err, fs.ErrNotExist):
			undo = append(undo, func() error {
				if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
				return nil
			})
		default:
			return restore, err
		}
		if err := os.WriteFile(dst, content, 0o644); err != nil {
			return restore, err
		}
	}
	return restore, nil
}

// releaseSlot gives a module copy back to the pool after a mutant. If
// restoring it failed (restoreErr), the copy may still hold the mutant's
// edit, which would then be built into every later mutant there: it is
// retired and replaced by a fresh copy; the error says so when even that
// fails, and the campaign stops.
func (r *run) releaseSlot(slot string, restoreErr error) error {
	if restoreErr == nil {
		r.isolate.slots <- slot
		return nil
	}
	os.RemoveAll(slot)
	fresh := fmt.Sprintf("%s.%d", slot, r.isolate.seq.Add(1))
	if err := copyTree(r.c.Module.Dir, fresh, r.c.Out); err != nil {
		os.RemoveAll(fresh)
		return fmt.Errorf("-isolate copy: restoring module copy %s failed (%v), and a new copy failed: %w", filepath.Base(slot), restoreErr, err)
	}
	r.Prog.Logf("perfmut: -isolate copy: restoring module copy %s failed (%v); replaced it with a fresh copy", filepath.Base(slot), restoreErr)
	r.isolate.slots <- fresh
	return nil
}

// copyTree copies the module at src to dst, skipping .git and the output
// directory.
func copyTree(src, dst, skip string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if d.Name() == ".git" && path != src || path == skip {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			l, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm()|0o200)
	})
}

// report assembles report.json from the results of c.Mutants.
func (r *run) report(ctx context.Context, started time.Time) (*results.Report, error) {
	c := r.c
	rep := &results.Report{
		Schema:   results.Schema,
		Module:   c.Module.Path,
		Dir:      c.Module.Dir,
		Go:       c.Settings.GoVersion,
		Settings: c.Settings,
		Started:  started,
		Finished: time.Now().UTC(),
	}
	for _, m := range c.Mutants {
		rm := results.Mutant{Mutant: m, Results: map[string]*results.LevelResult{}}
		for _, l := range c.Levels {
			if lr := r.results[resultKey{m.ID, l}]; lr != nil {
				rm.Results[l] = lr
			}
		}
		if c.Diff != nil {
			d, err := c.Diff(m)
			if err != nil {
				return nil, fmt.Errorf("diff of %s: %w", m.ID, err)
			}
			rm.Diff = d
		}
		rep.Mutants = append(rep.Mutants, rm)
	}
	results.SortMutants(rep.Mutants)
	if rep.Mutants == nil {
		rep.Mutants = []results.Mutant{}
	}
	rep.Score = results.LevelScores(rep.Mutants, c.Levels)
	rep.Phases = results.SumPhases(rep.Mutants)
	rep.Warnings = r.Warnings
	rep.Noise = r.Noise(undecidedBenchmarks(rep.Mutants))
	rep.Sensitivity = sensitivitiesPredicted(rep.Mutants, sitePredictor(rep.Mutants, rep.Noise, r.siteHeat))
	rep.Inputs = r.since.inputs
	if r.base.times != (results.BaselineTimes{}) {
		rep.Baseline = &r.base.times
	}
	sum := score.Summarize(results.Outcomes(rep.Mutants), c.Rule.Alpha, c.Rule.Correction)
	rep.Summary = &sum
	return rep, nil
}

// siteHeat is how often each benchmark whose timed loop runs m's site
// runs it per iteration (none when the campaign did not cover the
// benchmarks: a resumed run with nothing left to do).
func (r *run) siteHeat(m results.Mutant) map[engine.Benchmark]engine.BenchHeat {
	if len(r.cov.benches) == 0 {
		return nil
	}
	sel, _, err := r.selection(m.Mutant)
	if err != nil {
		return nil
	}
	return engine.HeatByBench(sel)
}

// undecidedBenchmarks reports whether benchmark name measured, at level
// and in unit (sec/op or instructions/op), a mutant of ms that ended
// undecided: the benchmarks whose noise the advice speaks of.
func undecidedBenchmarks(ms []results.Mutant) func(level, name, unit string) bool {
	set := map[[3]string]bool{}
	for _, m := range ms {
		for level, lr := range m.Results {
			if lr == nil || lr.Status != score.Undecided {
				continue
			}
			for _, t := range lr.Benchmarks {
				unit := score.SecPerOp
				if t.Metric == score.InstructionsPerOp {
					unit = score.InstructionsPerOp
				}
				set[[3]string{level, t.Benchmark, unit}] = true
			}
		}
	}
	return func(level, name, unit string) bool { return set[[3]string{level, name, unit}] }
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// phaseTimes is the time one mutant at one level spent in each phase.
// A measureJob is an engine Job waiting in the measurement queue, with
// what the campaign records of it.
type measureJob struct {
	engine.Job
	prep    time.Duration // build and tests
	phases  phaseTimes
	cleanup func()
}

type phaseTimes struct{ build, test, measure time.Duration }

// set records the phase times in lr.
func (p phaseTimes) set(lr *results.LevelResult) {
	lr.BuildSeconds, lr.TestSeconds, lr.MeasureSeconds = p.build.Seconds(), p.test.Seconds(), p.measure.Seconds()
}
