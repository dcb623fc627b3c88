package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perfmut/perfmut/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

// testCoverage is what each top-level test (and example and fuzz target's
// seed corpus) of one package's test binary executes on the baseline, so
// that a mutant's functional filter runs only the tests that reach it.
type testCoverage struct {
	// all is set when per-test coverage is unknown for the package (a
	// test failed or timed out when run alone): every test runs.
	all    bool
	tests  map[string]map[string][]engine.CovBlock // test -> coverage file -> blocks run
	always []string                                // tests that failed alone: they judge every mutant
	time   map[string]time.Duration                // test -> its coverage run's wall time (for -plan)
}

// A testJob is one test of a package's coverage binary to run.
type testJob struct {
	pkg  *mutate.Package
	bin  string
	test string
}

// listTests lists the tests of pkgs' coverage binaries (a package whose
// binary is missing or cannot list its tests gets all set: every test
// judges every mutant) and sets up cv for them.
func (cv *coverage) listTests(ctx context.Context, e *engine.Engine, hasTests map[string]bool, pkgs []*mutate.Package) ([]testJob, error) {
	cv.tests = map[string]*testCoverage{}
	cv.instrumented = map[string][]engine.CovBlock{}
	var jobs []testJob
	for _, p := range pkgs {
		if !hasTests[p.ImportPath] {
			continue
		}
		tc := &testCoverage{tests: map[string]map[string][]engine.CovBlock{}, time: map[string]time.Duration{}}
		cv.tests[p.ImportPath] = tc
		bin := coverBin(e.Tmp, p.ImportPath)
		if _, err := os.Stat(bin); err != nil {
			tc.all = true
			continue
		}
		args := []string{"-test.list=."}
		e.LogCmd(p.Dir, bin, args...)
		res, err := proc.Run(ctx, p.Dir, nil, e.Config().BenchTimeout, bin, args...)
		if err != nil {
			return nil, err
		}
		if res.Canceled {
			return nil, ctx.Err()
		}
		if !res.OK() {
			tc.all = true
			continue
		}
		for _, name := range testNames(res.Output) {
			jobs = append(jobs, testJob{p, bin, name})
		}
	}
	return jobs, nil
}

// coverTests records, for each package of pkgs with tests, which blocks of
// the mutated packages each of its tests runs: one process per test, in the
// -cover binary coverBenchmarks built. A package whose tests cannot be
// covered one by one is marked all (each mutant runs its whole suite).
// base is the baseline (its binaries and test times); a test found flaky
// is added to flaky.
func (cv *coverage) coverTests(ctx context.Context, e *engine.Engine, base *baseline, flaky *engine.FlakyTests, pkgs []*mutate.Package) error {
	jobs, err := cv.listTests(ctx, e, base.hasTests, pkgs)
	if err != nil {
		return err
	}
	if len(jobs) == 0 {
		return nil
	}
	e.Prog.Logf("perfmut: test coverage of %s", english.Plural(len(jobs), "test"))
	start := time.Now()
	done, stop := e.StepProgress("test coverage", len(jobs))
	defer stop()
	var mu sync.Mutex
	err = e.Parallel(ctx, len(jobs), func(i int) error {
		j := jobs[i]
		defer done.Add(1)
		f := filepath.Join(e.Tmp, "cover", fmt.Sprintf("t%d.cov", i))
		args := []string{"-test.run=" + engine.TestsPattern([]string{j.test}), "-test.bench=^$", "-test.coverprofile=" + f}
		args = append(args, flaky.Skip(j.pkg.ImportPath)...)
		e.LogCmd(j.pkg.Dir, j.bin, args...)
		res, err := proc.Run(ctx, j.pkg.Dir, nil, base.coverTestDeadline(j.pkg.ImportPath), j.bin, args...)
		if err != nil {
			return err
		}
		if res.Canceled {
			return ctx.Err()
		}
		tc := cv.tests[j.pkg.ImportPath]
		if !res.OK() {
			// A test that passes when run again is flaky: reported and
			// left out. One that fails alone every time (it may depend on
			// an earlier test) or is too slow under coverage may reach
			// anything: it judges every mutant.
			if !res.TimedOut && len(engine.PassingOnRetry(ctx, e, j.bin, j.pkg, []string{j.test})) == 1 {
				flaky.Add(j.pkg.ImportPath, j.test)
				e.Warnf("test %s of %s failed once on the unmutated baseline and passed when run again (flaky); it is left out of judging", j.test, j.pkg.ImportPath)
				return nil
			}
			mu.Lock()
			tc.always = append(tc.always, j.test)
			mu.Unlock()
			return nil
		}
		prof, err := engine.ReadProfile(f)
		os.Remove(f)
		if err != nil {
			return err
		}
		blocks := map[string][]engine.CovBlock{}
		mu.Lock()
		for file, bs := range prof {
			if cv.instrumented[file] == nil {
				cv.instrumented[file] = bs
			}
		}
		mu.Unlock()
		for file, bs := range prof {
			for _, b := range bs {
				if b.CountN != 0 {
					blocks[file] = append(blocks[file], b)
				}
			}
		}
		mu.Lock()
		tc.tests[j.test] = blocks
		tc.time[j.test] = res.Elapsed
		mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	e.Prog.Logf("perfmut: test coverage done in %s", time.Since(start).Round(time.Second))
	return nil
}

// coverBin is the -cover test binary of pkg in the temp dir tmp (see
// coverBenchmarks).
func coverBin(tmp, pkg string) string {
	return filepath.Join(tmp, "cover", engine.SafeName(pkg)+".test")
}

// coverTestDeadline bounds one test's coverage run: ten times the
// package's whole baseline test time, at least 30 s (coverage slows code).
func (b *baseline) coverTestDeadline(pkg string) time.Duration {
	var d time.Duration
	for _, byPkg := range b.testTime {
		d = max(d, byPkg[pkg])
	}
	return max(10*d, 30*time.Second)
}

// testNames parses -test.list output (one name per line; the last line
// may be "ok ..." from the testing package) into the names of the tests,
// examples and fuzz targets. Benchmarks, which it lists too, are left out:
// -test.run does not run them, so a coverage process each would only run
// TestMain.
func testNames(out []byte) []string {
	var names []string
	for _, l := range strings.Split(string(bytes.TrimSpace(out)), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.ContainsAny(l, " \t") || strings.HasPrefix(l, "Benchmark") {
			continue
		}
		names = append(names, l)
	}
	return names
}

// testSelection is, for one mutant, the tests of each affected package
// that its functional filter runs: the package's entry holds the top-level
// test names, or is nil to run all of them; a package without an entry
// runs no tests.
type testSelection map[string][]string

// runs reports whether the selection runs any test.
func (s testSelection) runs() bool { return len(s) > 0 }

// args returns the -test.run argument of pkg's selected tests.
func (s testSelection) args(pkg string) []string {
	if names := s[pkg]; names != nil {
		return []string{"-test.run=" + engine.TestsPattern(names)}
	}
	return nil
}

// selectTests chooses the tests that judge m: none for an operator whose edits
// cannot change behaviour (mutate.Operator.Inert), unless the campaign
// runs every test (FullFilter, or -isolate copy, where tests that read the
// module's source files see every mutant); else per package, those whose
// baseline coverage runs one of m's positions (all of them when unknown).
// base says which packages m affects and which have tests.
func (cv *coverage) selectTests(c *Campaign, base *baseline, m mutate.Mutant, pos [][2]int) testSelection {
	sel := testSelection{}
	full := c.FullFilter || c.Isolate == IsolateCopy
	if c.untested(m) {
		return sel
	}
	file := engine.CoverFile(m)
	// Code outside every coverage block (package-level initializers) runs
	// at init, before any test: every test may see it.
	unsure := full
	for _, p := range pos {
		unsure = unsure || !reaches(cv.instrumented[file], [][2]int{p})
	}
	for _, pkg := range base.affected[m.Package] {
		if !base.hasTests[pkg] {
			continue
		}
		tc := cv.tests[pkg]
		if unsure || tc == nil || tc.all {
			sel[pkg] = nil
			continue
		}
		names := slices.Clone(tc.always)
		for name, blocks := range tc.tests {
			if reaches(blocks[file], pos) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			sort.Strings(names)
			sel[pkg] = names
		}
	}
	return sel
}

// reaches reports whether one of blocks contains one of the positions.
func reaches(blocks []engine.CovBlock, pos [][2]int) bool {
	for _, b := range blocks {
		for _, p := range pos {
			if b.Contains(p[0], p[1]) {
				return true
			}
		}
	}
	return false
}

// untested reports whether m runs no tests: its operator is inert and the
// campaign does not run every test on every mutant.
func (c *Campaign) untested(m mutate.Mutant) bool {
	full := c.FullFilter || c.Isolate == IsolateCopy
	op := operators.ByName(m.Operator)
	return op != nil && op.Inert && !full
}
