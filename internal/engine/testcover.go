package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// RunTests runs a test binary's tests (no benchmarks) in dir, as go test
// does, with structured output (-test.v=test2json), and classifies the
// result.
func (e *Engine) RunTests(ctx context.Context, bin, dir string, timeout time.Duration, extra ...string) (TestOutcome, error) {
	args := append([]string{"-test.v=test2json", "-test.paniconexit0", "-test.timeout=0"}, extra...)
	e.LogCmd(dir, bin, args...)
	res, err := proc.Run(ctx, dir, nil, timeout, bin, args...)
	if err != nil {
		return TestOutcome{}, fmt.Errorf("running %s: %w", bin, err)
	}
	if res.Canceled {
		return TestOutcome{}, ctx.Err()
	}
	out := classifyTests(res)
	out.Elapsed = res.Elapsed
	if out.Status != "" {
		out.Output = tail(bytes.ReplaceAll(res.Output, []byte("\x16"), nil), 40)
	}
	if out.Status == score.Timeout {
		out.Reason = fmt.Sprintf("tests still running after %s (killed)", timeout.Round(time.Millisecond))
	}
	return out, nil
}

// A TestCoverage is what each top-level test (and example and fuzz target's
// seed corpus) of one package's test binary executes on the baseline, so
// that a mutant's functional filter runs only the tests that reach it.
type TestCoverage struct {
	// All is set when per-test coverage is unknown for the package (a
	// test failed or timed out when run alone): every test runs.
	All    bool
	Tests  map[string]map[string][]CovBlock // test -> coverage file -> blocks run
	Always []string                         // tests that failed alone: they judge every mutant
	Time   map[string]time.Duration         // test -> its coverage run's wall time (for -plan)
}

// TestsCoverage is what CoverTests finds: what each package's tests run,
// and every coverage block of each mutated file, run or not (a position
// outside all of them is package-level code, run before any test).
type TestsCoverage struct {
	Packages     map[string]*TestCoverage // package -> what its tests run
	Instrumented map[string][]CovBlock    // coverage file -> its blocks
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
func (cv *TestsCoverage) listTests(ctx context.Context, e *Engine, hasTests map[string]bool, pkgs []*mutate.Package) ([]testJob, error) {
	cv.Packages = map[string]*TestCoverage{}
	cv.Instrumented = map[string][]CovBlock{}
	var jobs []testJob
	for _, p := range pkgs {
		if !hasTests[p.ImportPath] {
			continue
		}
		tc := &TestCoverage{Tests: map[string]map[string][]CovBlock{}, Time: map[string]time.Duration{}}
		cv.Packages[p.ImportPath] = tc
		bin := coverBin(e.Tmp, p.ImportPath)
		if _, err := os.Stat(bin); err != nil {
			tc.All = true
			continue
		}
		args := []string{"-test.list=."}
		e.LogCmd(p.Dir, bin, args...)
		res, err := proc.Run(ctx, p.Dir, nil, e.cfg.BenchTimeout, bin, args...)
		if err != nil {
			return nil, err
		}
		if res.Canceled {
			return nil, ctx.Err()
		}
		if !res.OK() {
			tc.All = true
			continue
		}
		for _, name := range testNames(res.Output) {
			jobs = append(jobs, testJob{p, bin, name})
		}
	}
	return jobs, nil
}

// CoverTests records, for each package of pkgs with tests (hasTests),
// which blocks of the mutated packages each of its tests runs: one process
// per test, in the -cover binary CoverBenchmarks built, within
// deadline(package). A package whose tests cannot be covered one by one
// is marked All (each mutant runs its whole suite); a test found flaky is
// added to flaky.
func (e *Engine) CoverTests(ctx context.Context, pkgs []*mutate.Package, hasTests map[string]bool, deadline func(pkg string) time.Duration, flaky *FlakyTests) (*TestsCoverage, error) {
	cv := &TestsCoverage{}
	jobs, err := cv.listTests(ctx, e, hasTests, pkgs)
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return cv, nil
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
		args := []string{"-test.run=" + TestsPattern([]string{j.test}), "-test.bench=^$", "-test.coverprofile=" + f, "-test.paniconexit0"}
		args = append(args, flaky.Skip(j.pkg.ImportPath)...)
		e.LogCmd(j.pkg.Dir, j.bin, args...)
		res, err := proc.Run(ctx, j.pkg.Dir, nil, deadline(j.pkg.ImportPath), j.bin, args...)
		if err != nil {
			return err
		}
		if res.Canceled {
			return ctx.Err()
		}
		tc := cv.Packages[j.pkg.ImportPath]
		if !res.OK() {
			// A test that passes when run again is flaky: reported and
			// left out. One that fails alone every time (it may depend on
			// an earlier test) or is too slow under coverage may reach
			// anything: it judges every mutant.
			if !res.TimedOut && len(PassingOnRetry(ctx, e, j.bin, j.pkg, []string{j.test})) == 1 {
				flaky.Add(j.pkg.ImportPath, j.test)
				e.Warnf("test %s of %s failed once on the unmutated baseline and passed when run again (flaky); it is left out of judging", j.test, j.pkg.ImportPath)
				return nil
			}
			mu.Lock()
			tc.Always = append(tc.Always, j.test)
			mu.Unlock()
			return nil
		}
		prof, err := readProfile(f)
		os.Remove(f)
		if err != nil {
			return err
		}
		blocks := map[string][]CovBlock{}
		mu.Lock()
		for file, bs := range prof {
			if cv.Instrumented[file] == nil {
				cv.Instrumented[file] = bs
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
		tc.Tests[j.test] = blocks
		tc.Time[j.test] = res.Elapsed
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.Prog.Logf("perfmut: test coverage done in %s", time.Since(start).Round(time.Second))
	return cv, nil
}

// coverBin is the -cover test binary of pkg in the temp dir tmp (see
// CoverBenchmarks).
func coverBin(tmp, pkg string) string {
	return filepath.Join(tmp, "cover", SafeName(pkg)+".test")
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
