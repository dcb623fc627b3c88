package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// ReportFile is report.json in the output directory.
const ReportFile = results.ReportFile

// A resultKey names one result: a mutant at a level.
type resultKey struct{ id, level string }

// run is the state of one Campaign.Run. Its parts are grouped by the
// phase that fills them: the baseline (base), coverage (cov), -since
// (since), equivalence by code (tce), deduplication (dedup), the output
// directory (out) and -isolate copy (isolate). Each phase's methods take
// the values they read; mu guards results, measured, srcs and built, while
// the warnings, flaky tests and deduplication have locks of their own.
type run struct {
	c              *Campaign
	*engine.Engine // the engine's configuration, temp dir, progress and warnings every phase uses

	pkgs    map[string]*mutate.Package
	base    baseline
	tce     tceState
	cov     coverage
	since   sinceState
	dedup   dedupState
	out     outState
	isolate isolateState

	// quiet keeps builds and tests (readers) out of measurement (writer).
	quiet sync.RWMutex
	// builders is the state of the workers that build, for the measurer
	// (a new one for each wave of mutants).
	builders *builders

	mu       sync.Mutex
	results  map[resultKey]*results.LevelResult
	measured time.Duration // total measurement time

	flaky engine.FlakyTests
	srcs  map[string][]byte
	built map[string]map[string]bool // mutant ID -> packages its binaries were built for; under mu
}

// baseline is what the baseline phase (run.baseline) finds: the test
// binaries of each level and what building and testing them took.
type baseline struct {
	affected  map[string][]string // mutated package -> it and the loaded packages importing it
	hasTests  map[string]bool     // package has a test binary
	bins      map[string]map[string]string
	testTime  map[string]map[string]time.Duration // level -> package -> test time
	buildTime map[string]map[string]time.Duration // level -> package -> test binary build time
	times     results.BaselineTimes               // baseline steps' wall times
}

// tceState is what equivalence by compiled code (tce.go) caches.
type tceState struct {
	base        sync.Map // baseline binary + package -> funcCode
	objdumpOnce sync.Once
	objdumpCmd  []string // how to run go tool objdump
}

// coverage is what the baseline's coverage runs find.
type coverage struct {
	benches []*engine.BenchCoverage
	tests   map[string]*engine.TestCoverage // package -> what its tests run (engine.CoverTests)
	// instrumented holds every coverage block of each mutated file, run
	// or not: a position outside all of them is package-level code.
	instrumented map[string][]engine.CovBlock
	spans        map[string][]funcSpan // coverage file -> its functions' lines (sincefunc.go)
}

// sinceState is -since's: the earlier campaign and what may be reused.
type sinceState struct {
	inputs *results.Inputs                    // what the verdicts depend on (since.go)
	prev   *results.Report                    // the -since campaign's report
	why    string                             // why none of its results can be reused, or ""
	retest map[resultKey]*results.LevelResult // measured results that hold if their tests pass again (sincefunc.go)
}

// dedupState is what deduplication (duplicate.go, subsume.go) keeps.
type dedupState struct {
	mu        sync.Mutex
	owners    map[string]*codeOwner       // level, package, code fingerprint -> first mutant; under mu
	ownerDone map[resultKey]chan struct{} // closed when a code owner's result is recorded; under mu
	subsumer  map[string]string           // mutant ID -> the next smaller one at its site (see subsumers)
}

// outState is the output directory's lock and journal.
type outState struct {
	lock    *outdir.Locked // on c.Out
	journal *results.Journal
	kept    string // where an earlier run's results went (keepPrevious); "" if none
}

// isolateState is -isolate copy's pool of module copies.
type isolateState struct {
	slots chan string  // free module copies
	seq   atomic.Int64 // numbers replacement copies
}

// Run runs the campaign and writes journal.jsonl, the benchfmt samples and
// report.json into c.Out. Cancelling ctx stops it cleanly: the journal
// keeps every finished mutant and temporary files are removed.
func (c *Campaign) Run(ctx context.Context) (rep *results.Report, err error) {
	cc := *c // defaults are filled in on a copy: the caller's value is not changed
	c = &cc
	if err := c.check(); err != nil {
		return nil, err
	}
	c.RecordSettings(ctx)
	started := time.Now().UTC()
	r := newRun(c)
	entries, goodLen, err := r.prepareOut()
	defer r.out.lock.Unlock()
	if err != nil {
		return nil, err
	}
	r.keepResults(entries)
	j, err := results.OpenJournal(filepath.Join(c.Out, results.JournalFile), goodLen)
	if err != nil {
		return nil, fmt.Errorf("opening journal: %w", err)
	}
	r.out.journal = j
	defer j.Close()
	if r.since.inputs, err = r.inputs(ctx); err != nil {
		return nil, err
	}
	reused, noReuse := 0, ""
	if c.Since != "" {
		if reused, noReuse, err = r.reuse(c.Since, r.since.inputs); err != nil {
			return nil, err
		}
	}
	todo, total := r.todo()
	r.Prog = engine.NewProgress(c.Log, c.Progress, total)
	defer r.Prog.End()
	r.logStart(total, reused, noReuse)
	if len(todo) > 0 {
		if err := r.makeTemp(); err != nil {
			return nil, err
		}
		defer os.RemoveAll(r.Tmp)
		if todo, err = r.runTodo(ctx, todo); err != nil {
			return nil, err
		}
	}
	if len(todo) == 0 {
		r.recordReach(r.prevInputs(), nil)
	}
	rep, err = r.report(ctx, started)
	if err != nil {
		return nil, err
	}
	if err := c.functionMap(ctx, r.since.inputs, r.Prog, rep, r.Engine); err != nil {
		// Every mutant has its result: keep the report, which -resume
		// completes with the map.
		rep.Warnings = append(rep.Warnings, "the function sensitivity map was interrupted; perfmut run -resume makes it")
		rep.Unfinished = "the function sensitivity map"
		if werr := results.WriteJSON(filepath.Join(c.Out, ReportFile), rep); werr != nil {
			return nil, werr
		}
		return nil, r.interrupted()
	}
	// The campaign ends after the map: the report's duration and the log's
	// "done in" are the same span.
	rep.Finished = time.Now().UTC()
	if len(todo) > 0 {
		r.logDone(rep, started)
	}
	return rep, results.WriteJSON(filepath.Join(c.Out, ReportFile), rep)
}

// keepResults keeps the journal's results of the campaign's mutants.
func (r *run) keepResults(entries []results.JournalEntry) {
	known := map[string]bool{}
	for _, m := range r.c.Mutants {
		known[m.ID] = true
	}
	for _, e := range entries {
		if known[e.ID] {
			r.results[resultKey{e.ID, e.Level}] = e.Result
		}
	}
}

// todo returns the mutants (indexes into c.Mutants) with a level still
// without a result, and the number of such results.
func (r *run) todo() (todo []int, total int) {
	c := r.c
	for i, m := range c.Mutants {
		n := 0
		for _, l := range c.Levels {
			if r.results[resultKey{m.ID, l}] == nil {
				n++
			}
		}
		if n > 0 {
			todo = append(todo, i)
			total += n
		}
	}
	return todo, total
}

// logStart says how many results a resumed run or -since already has.
func (r *run) logStart(total, reused int, noReuse string) {
	c := r.c
	all := len(c.Mutants) * len(c.Levels)
	if r.out.kept != "" {
		r.Prog.Logf("perfmut: the earlier run's results are kept in %s (-resume continues a run instead)", r.out.kept)
	}
	if done := all - total - reused; c.Resume && done > 0 {
		r.Prog.Logf("perfmut: resuming: %d of %d results already in the journal", done, all)
	}
	switch {
	case noReuse != "":
		r.Prog.Logf("perfmut: -since %s: %s; every mutant runs", c.Since, noReuse)
	case c.Since != "":
		r.Prog.Logf("perfmut: -since %s: %d of %d results reused (nothing they depend on changed); %d to run", c.Since, reused, all, total)
	}
}

// runTodo runs the baseline, then the mutants todo in waves; it returns
// the mutants that ran (-since may find more to reuse after the
// baseline).
func (r *run) runTodo(ctx context.Context, todo []int) ([]int, error) {
	c := r.c
	if err := r.baseline(ctx, todo); err != nil {
		if ctx.Err() != nil {
			return nil, r.interrupted()
		}
		return nil, err
	}
	todo, err := r.sinceAfterBaseline(todo)
	if err != nil {
		return nil, err
	}
	if err := r.warmIters(ctx, todo); err != nil {
		return nil, err
	}
	r.Prog.Begin()
	// With subsumption, the smallest injection at a site runs first;
	// each wave waits for the verdicts of the one before.
	ws := [][]int{todo}
	if c.Infer {
		r.dedup.subsumer = subsumers(c.Mutants)
		ws = waves(c.Mutants, todo, r.dedup.subsumer)
	}
	for _, w := range ws {
		if err := r.mutants(ctx, w); err != nil {
			if ctx.Err() != nil {
				return nil, r.interrupted()
			}
			return nil, err
		}
	}
	return todo, nil
}

// logDone says how long the campaign took and where the time went.
func (r *run) logDone(rep *results.Report, started time.Time) {
	var build, test float64
	for _, p := range rep.Phases {
		build += p.BuildSeconds
		test += p.TestSeconds
	}
	sec := func(s float64) time.Duration { return (time.Duration(s * float64(time.Second))).Round(time.Second) }
	// Counted mutants are measured several at once: their measurement is
	// summed too, and may exceed the campaign's wall time.
	r.Prog.Logf("perfmut: done in %s (builds %s and tests %s summed over %s; measurement %s summed over the mutants)",
		rep.Finished.Sub(started).Round(time.Second), sec(build), sec(test), english.Plural(r.c.Jobs, "worker"), r.measured.Round(time.Second))
	if n := rep.Noise; n != nil {
		r.Prog.Logf("perfmut: measured %s; %s", n.Measures, n.Machine.String())
		for _, a := range n.Advice {
			r.Prog.Logf("perfmut: %s", a)
		}
	}
}

// newRun is the state of a new run of c (already checked).
func newRun(c *Campaign) *run {
	r := &run{c: c, Engine: engine.New(c.config(), "", nil), pkgs: map[string]*mutate.Package{}, results: map[resultKey]*results.LevelResult{},
		srcs: map[string][]byte{}}
	for _, p := range c.Packages {
		r.pkgs[p.ImportPath] = p
	}
	return r
}

// makeTemp creates the run's private temporary directory (the caller
// removes it), with a pid file by which a later run removes it if this
// process is killed; it first removes such leftovers of killed runs.
func (r *run) makeTemp() error {
	var err error
	r.Tmp, err = outdir.MakeTemp()
	return err
}

// result is the recorded result of k, or nil.
func (r *run) result(k resultKey) *results.LevelResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.results[k]
}

func (r *run) interrupted() error {
	r.mu.Lock()
	n := len(r.results)
	r.mu.Unlock()
	return fmt.Errorf("interrupted; %d %s kept in %s; continue with -resume",
		n, english.Choose(n, "result is", "results are"), filepath.Join(r.c.Out, results.JournalFile))
}

func (c *Campaign) check() error {
	if err := c.Rule.Validate(); err != nil {
		return fmt.Errorf("runner: Campaign.Rule: %w", err)
	}
	c.Rule = c.Rule.WithDefaults()
	if c.Overlay == nil {
		return errors.New("runner: Campaign.Overlay is nil")
	}
	if len(c.Levels) == 0 {
		c.Levels = []string{results.Opt, results.NoOpt}
	}
	c.Measurement = c.Measurement.WithDefaults()
	if c.Isolate == "" {
		c.Isolate = IsolateOverlay
	}
	if err := CheckIsolate(c.Isolate); err != nil {
		return err
	}
	if c.Out == "" {
		c.Out = "perfmut-out"
	}
	if err := CheckModuleDir(context.Background(), c.Module.Dir); err != nil {
		return err
	}
	return nil
}

// CheckModuleDir rejects a module inside the read-only module cache:
// overlays cannot replace files there, and perfmut never writes to it. The
// error is an *inputerr.Error.
func CheckModuleDir(ctx context.Context, dir string) error {
	res, err := proc.Run(ctx, "", nil, time.Minute, "go", "env", "GOMODCACHE")
	if err != nil || !res.OK() {
		return nil
	}
	cache := strings.TrimSpace(string(res.Output))
	if cache == "" {
		return nil
	}
	if rel, err := filepath.Rel(cache, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return inputerr.Errorf("module %s is inside the read-only module cache (%s); copy it out first: cp -r %s /tmp/mod && chmod -R u+w /tmp/mod", dir, cache, dir)
	}
	return nil
}

// settingsFile, in a results directory, holds the settings of its run:
// what -resume checks.
const settingsFile = "settings.json"

// prepareOut creates the output directory, locks it (r.lock, which the
// caller releases), and reads the journal to resume, checking the
// settings match.
func (r *run) prepareOut() ([]results.JournalEntry, int64, error) {
	c := r.c
	if err := c.checkOutDir(); err != nil {
		return nil, 0, err
	}
	if err := outdir.Make(c.Out); err != nil {
		// E.g. below a read-only file system: outdir.Check creates nothing.
		return nil, 0, inputerr.Errorf("-out %s: cannot create it: %w; choose another directory with -out", c.Out, err)
	}
	lock, err := outdir.Lock(c.Out)
	if err != nil {
		return nil, 0, err
	}
	r.out.lock = lock
	if abs, err := filepath.Abs(c.Out); err == nil {
		c.Out = abs
	}
	if !c.Resume {
		if err := r.keepPrevious(); err != nil {
			return nil, 0, err
		}
	}
	entries, goodLen, err := c.readOut()
	if err != nil {
		return nil, 0, err
	}
	spath := filepath.Join(c.Out, settingsFile)
	if _, err := os.Stat(spath); c.Resume && err == nil {
		return entries, goodLen, nil
	}
	return entries, goodLen, results.WriteJSON(spath, c.Settings)
}

// keepPrevious moves the results of an earlier run in c.Out, which a run
// without Resume starts again in, into its outdir.PreviousDir (one
// generation back; that directory's earlier content goes), and says so
// (r.out.kept). A -since naming c.Out reads them there. A run that left
// no result (its journal empty, no report) is no generation: its files
// are replaced, and the previous results stay.
func (r *run) keepPrevious() error {
	c := r.c
	if !holdsResults(c.Out) {
		return nil
	}
	kept, err := outdir.KeepPrevious(c.Out)
	if err != nil {
		return fmt.Errorf("-out %s: cannot keep the earlier run's results in %s: %w", c.Out, outdir.PreviousDir, err)
	}
	if !kept {
		return nil
	}
	r.out.kept = filepath.Join(c.Out, outdir.PreviousDir)
	if since, err := filepath.Abs(c.Since); err == nil && c.Since != "" && since == c.Out {
		c.Since = r.out.kept
	}
	return nil
}

// holdsResults reports whether the results directory dir holds a
// result: a journal line or a report.
func holdsResults(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, results.JournalFile)); err == nil && fi.Size() > 0 {
		return true
	}
	_, err := os.Stat(filepath.Join(dir, ReportFile))
	return err == nil
}

// CheckOut says in one line why Run would refuse c.Out, before anything
// is built or written: it is not a writable directory (or one of the
// user's files, not a results directory), another perfmut writes there,
// or Resume is set and it holds no run to resume or one with other
// settings. Results there without Resume are no reason: Run keeps them
// in outdir.PreviousDir. Bad input is
// an *inputerr.Error. Run checks all of this again.
func (c *Campaign) CheckOut(ctx context.Context) error {
	cc := *c
	if err := cc.check(); err != nil {
		return err
	}
	cc.RecordSettings(ctx)
	if err := CheckOutResults(cc.Out, cc.Resume); err != nil || !cc.Resume {
		return err
	}
	_, _, err := cc.readOut() // the settings
	return err
}

// CheckOutResults says in one line (an *inputerr.Error) why a campaign would
// refuse the results directory dir, from what it holds, creating nothing:
// it is not a writable results directory, another perfmut writes there,
// or resume is set and it holds no run to resume. Campaign.CheckOut also checks the settings -resume continues
// with.
func CheckOutResults(dir string, resume bool) error {
	c := &Campaign{Out: dir, Resume: resume}
	if err := c.checkOutDir(); err != nil {
		return err
	}
	if err := outdir.CheckUnlocked(dir); err != nil {
		return err
	}
	if resume {
		return nil
	}
	_, _, err := c.readOut()
	return err
}

// checkOutDir checks, creating nothing, that c.Out can hold results and,
// with Resume, that it holds a run to resume.
func (c *Campaign) checkOutDir() error {
	if err := outdir.CheckFor(c.Out, c.Resume); err != nil {
		return &inputerr.Error{Err: err}
	}
	if c.Resume {
		return checkResumable(c.Out)
	}
	return nil
}

// readOut reads the journal of c.Out with Resume: the settings of the
// run it continues must be c's. Without Resume there is nothing to read:
// Run keeps an earlier run's results in outdir.PreviousDir.
func (c *Campaign) readOut() ([]results.JournalEntry, int64, error) {
	if !c.Resume {
		return nil, 0, nil
	}
	jpath := filepath.Join(c.Out, results.JournalFile)
	entries, goodLen, err := results.ReadJournal(jpath)
	if err != nil {
		return nil, 0, err
	}
	spath := filepath.Join(c.Out, settingsFile)
	data, err := os.ReadFile(spath)
	if err != nil {
		return entries, goodLen, nil
	}
	var prev results.Settings
	if err := jsonUnmarshal(data, &prev); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", spath, err)
	}
	if d := prev.Diff(c.Settings); d != "" {
		return nil, 0, inputerr.Errorf("-resume: %s differs from the interrupted run in %s; use the same flags, or another -out", c.Out, d)
	}
	return entries, goodLen, nil
}

// baseline builds the test binaries of every package the mutants affect
// at each level, runs their tests (they must pass), and finds each
// benchmark's coverage.
func (r *run) baseline(ctx context.Context, todo []int) error {
	c := r.c
	mutated := map[string]bool{}
	for _, i := range todo {
		mutated[c.Mutants[i].Package] = true
	}
	pkgs, err := r.judgingPackages(mutated)
	if err != nil {
		return err
	}

	// Build.
	r.base.hasTests = map[string]bool{}
	r.base.bins = map[string]map[string]string{}
	r.SetBaseline(r.base.bins)
	r.base.testTime = map[string]map[string]time.Duration{}
	r.base.buildTime = map[string]map[string]time.Duration{}
	type bjob struct {
		level string
		pkg   *mutate.Package
	}
	var jobs []bjob
	for _, l := range c.Levels {
		r.base.bins[l] = map[string]string{}
		r.base.testTime[l] = map[string]time.Duration{}
		r.base.buildTime[l] = map[string]time.Duration{}
		if err := os.MkdirAll(filepath.Join(r.Tmp, "base", l), 0o755); err != nil {
			return err
		}
		for _, p := range pkgs {
			jobs = append(jobs, bjob{l, p})
		}
	}
	if err := os.MkdirAll(filepath.Join(r.Tmp, "cover"), 0o755); err != nil {
		return err
	}
	r.Prog.Logf("perfmut: building and testing the baseline of %s", english.Plural(len(pkgs), "package"))
	t0 := time.Now()
	var mu sync.Mutex
	failed := make([]error, len(jobs))
	err = r.Parallel(ctx, len(jobs), func(i int) error {
		var err error
		failed[i], err = r.basePackage(ctx, jobs[i].level, jobs[i].pkg, mutated, &mu)
		return err
	})
	if err != nil {
		return err
	}
	for i := range jobs { // the first failure in level and package order
		if failed[i] != nil {
			return failed[i]
		}
	}

	r.base.times.BuildTestSeconds = time.Since(t0).Seconds()
	return r.baselineCoverage(ctx, pkgs, mutated, len(todo))
}

// basePackage builds the test binary of pkg at level and runs its tests
// on the unmutated module, under mu for r's maps. failed is a baseline
// whose tests fail (the campaign stops on the first, in order); an
// importer of a mutated package that does not build or whose tests fail
// is left out of judging with a warning.
func (r *run) basePackage(ctx context.Context, level string, pkg *mutate.Package, mutated map[string]bool, mu *sync.Mutex) (failed, err error) {
	c := r.c
	bin := filepath.Join(r.Tmp, "base", level, engine.SafeName(pkg.ImportPath)+".test")
	bstart := time.Now()
	ok, err := r.GoTestC(ctx, c.Module.Dir, pkg.ImportPath, bin, "", level)
	mu.Lock()
	r.base.buildTime[level][pkg.ImportPath] = time.Since(bstart)
	mu.Unlock()
	if err != nil {
		var be *engine.BuildError
		if errors.As(err, &be) {
			if !mutated[pkg.ImportPath] {
				// An importer of a mutated package that does not build
				// cannot judge; the campaign goes on without it.
				r.Warnf("package %s imports a mutated package but its tests do not build at %s (%s); it is left out of judging", pkg.ImportPath, level, be.Reason())
				return nil, nil
			}
			return nil, fmt.Errorf("the baseline does not build: %s", be.Reason())
		}
		return nil, err
	}
	if !ok {
		return nil, nil
	}
	// Like go test's default -timeout.
	out, err := r.RunTests(ctx, bin, pkg.Dir, max(10*time.Minute, c.Timeout))
	if err != nil {
		return nil, err
	}
	if out.Status == score.FNE {
		// A test that passes when run again is flaky, not failing:
		// it is reported and left out.
		if flaky := engine.PassingOnRetry(ctx, r.Engine, bin, pkg, out.Failed); len(flaky) == len(out.Failed) {
			r.flaky.Add(pkg.ImportPath, flaky...)
			for _, n := range flaky {
				r.Warnf("test %s of %s failed once on the unmutated baseline and passed when run again (flaky); it is left out of judging", n, pkg.ImportPath)
			}
			out.Status = ""
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if out.Status != "" && !mutated[pkg.ImportPath] {
		r.Warnf("package %s imports a mutated package but its tests fail on the unmutated baseline at %s (%s); it is left out of judging", pkg.ImportPath, level, out.Reason)
		return nil, nil
	}
	if out.Status != "" {
		lvl, fix := "", "fix the tests or exclude the package"
		if level == results.NoOpt {
			// Tests of allocation counts or inlining fail only here.
			lvl, fix = " when built with -gcflags=all=-N -l", "fix the tests, exclude the package, or measure only optimized builds with -opt on"
		}
		return fmt.Errorf("baseline tests fail in package %s%s (%s); perfmut needs a passing test suite: %s", pkg.ImportPath, lvl, out.Reason, fix), nil
	}
	r.base.hasTests[pkg.ImportPath] = true
	r.base.bins[level][pkg.ImportPath] = bin
	r.base.testTime[level][pkg.ImportPath] = out.Elapsed
	return nil, nil
}

// judgingPackages finds, for each mutated package, the loaded packages that
// import it directly or not (r.affected: the mutated package first), and
// returns all of them: the packages whose tests and benchmarks judge.
func (r *run) judgingPackages(mutated map[string]bool) ([]*mutate.Package, error) {
	// Reverse dependencies among the loaded packages.
	importers := map[string][]string{}
	for _, p := range r.c.Packages {
		for _, imp := range p.Imports {
			importers[imp] = append(importers[imp], p.ImportPath)
		}
	}
	r.base.affected = map[string][]string{}
	needed := map[string]bool{}
	for pkg := range mutated {
		if r.pkgs[pkg] == nil {
			return nil, fmt.Errorf("mutated package %s is not among the loaded packages", pkg)
		}
		seen := map[string]bool{pkg: true}
		queue := []string{pkg}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, q := range importers[p] {
				if !seen[q] && r.pkgs[q] != nil {
					seen[q] = true
					queue = append(queue, q)
				}
			}
		}
		var list []string
		for p := range seen {
			if p != pkg {
				list = append(list, p)
			}
			needed[p] = true
		}
		sort.Strings(list)
		r.base.affected[pkg] = append([]string{pkg}, list...) // the mutated package first
	}
	var pkgs []*mutate.Package
	for p := range needed {
		pkgs = append(pkgs, r.pkgs[p])
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ImportPath < pkgs[j].ImportPath })

	return pkgs, nil
}

// baselineCoverage records each benchmark's coverage and, unless every
// test runs on every mutant, each test's.
func (r *run) baselineCoverage(ctx context.Context, pkgs []*mutate.Package, mutated map[string]bool, todo int) error {
	c := r.c
	// Coverage of each benchmark.
	var coverpkg []string
	for p := range mutated {
		coverpkg = append(coverpkg, p)
	}
	sort.Strings(coverpkg)
	t0 := time.Now()
	var err error
	r.cov.benches, err = r.CoverBenchmarks(ctx, r.base.hasTests, pkgs, coverpkg)
	if err != nil {
		return err
	}
	r.base.times.BenchCoverageSeconds = time.Since(t0).Seconds()
	if len(r.cov.benches) == 0 {
		var names []string
		for _, p := range pkgs {
			names = append(names, p.ImportPath)
		}
		return fmt.Errorf("no benchmarks in scope (packages %s): perfmut measures Benchmark functions; add benchmarks that exercise the code, or widen the package patterns", strings.Join(names, ", "))
	}
	if !c.FullFilter {
		t0 = time.Now()
		tc, err := r.CoverTests(ctx, pkgs, r.base.hasTests, r.base.coverTestDeadline, &r.flaky)
		if err != nil {
			return err
		}
		r.cov.tests, r.cov.instrumented = tc.Packages, tc.Instrumented
		r.base.times.TestCoverageSeconds = time.Since(t0).Seconds()
	}
	r.Prog.Logf("perfmut: %s found; %s to run at %s", english.Plural(len(r.cov.benches), "benchmark"), english.Plural(todo, "mutant"), strings.Join(c.Levels, " and "))
	return nil
}

// testTimeout is the functional-test timeout of pkg at level.
func (r *run) testTimeout(level, pkg string) time.Duration {
	if r.c.Timeout > 0 {
		return r.c.Timeout
	}
	return max(10*r.base.testTime[level][pkg], 10*time.Second)
}

// record keeps a finished result, appends it to the journal and reports
// progress.
func (r *run) record(m mutate.Mutant, level string, lr *results.LevelResult) error {
	r.mu.Lock()
	lr.Judges = r.judgesOf(m.Package, lr, r.built[m.ID])
	r.results[resultKey{m.ID, level}] = lr
	r.mu.Unlock()
	r.dedup.ownerRecorded(m.ID, level)
	if err := r.out.journal.Append(results.JournalEntry{ID: m.ID, Level: level, Result: lr, Time: time.Now().UTC()}); err != nil {
		return err
	}
	detail := lr.Reason
	if lr.Status == score.Killed || lr.Status == score.Survived {
		detail = sampleDetail(lr)
	}
	r.Prog.Finished(fmt.Sprintf("%s %s %s:%d", m.ID, m.Operator, m.File, m.Line), level, lr.Status, detail)
	return nil
}

// RecordSettings fills in c.Settings from the campaign itself: what was built,
// measured and decided is what -resume and merge compare. What the command
// chose (the patterns, -opt, the mutants' selection, the map's flags) is
// the caller's.
func (c *Campaign) RecordSettings(ctx context.Context) {
	s := &c.Settings
	c.Measurement.RecordSettings(s)
	s.Module, s.Isolate, s.GoVersion = c.Module.Path, c.Isolate, engine.GoVersion(ctx)
	s.NoInfer, s.MaxBenchmarks, s.FullFilter = !c.Infer, c.MaxBenchmarks, c.FullFilter
}

// CheckIsolate checks an -isolate mode: overlay or copy. A bad one is an
// *inputerr.Error.
func CheckIsolate(mode string) error {
	if mode != IsolateOverlay && mode != isolateCopy {
		return inputerr.Errorf("bad -isolate %q: want overlay or copy", mode)
	}
	return nil
}

// warmIters finds, while nothing else runs, the time-mode iteration count
// at every level of each benchmark that reaches a mutant still to run
// (Engine.Iters: native samples) when the campaign counts instructions: a
// job measured on counts only may then run beside builds and other such
// jobs from its first benchmark on (measureQueue), where finding them in
// the job would make it wait for the machine to be quiet. A benchmark
// whose baseline fails here is left to the job that needs it, which fails
// as before. The error is ctx's.
func (r *run) warmIters(ctx context.Context, todo []int) error {
	if r.c.Counting == nil || len(todo) == 0 {
		return nil
	}
	seen := map[engine.Benchmark]bool{}
	var bs []engine.Benchmark
	for _, i := range todo {
		sel, _, err := r.selection(r.c.Mutants[i])
		if err != nil {
			continue // the mutant's own build reports it
		}
		for _, b := range engine.WithCPUs(sel.Benches, r.c.CPU) {
			if !seen[b] {
				seen[b] = true
				bs = append(bs, b)
			}
		}
	}
	for _, level := range r.c.Levels {
		for _, b := range bs {
			if _, err := r.Iters(ctx, level, b); err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	return nil
}
