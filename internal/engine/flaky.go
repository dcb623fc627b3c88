package engine

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/perfmut/perfmut/mutate"
)

// flakyRuns is how many times a test that failed on a mutant is run again
// on the baseline binary before the mutant is called fne: a test that
// fails there too is flaky, not rejecting the mutant.
const flakyRuns = 5

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestsPattern is a -test.run/-test.skip pattern matching the top-level
// tests of names (a subtest's whole parent).
func TestsPattern(names []string) string {
	var tops []string
	for _, n := range names {
		top, _, _ := strings.Cut(n, "/")
		if q := regexp.QuoteMeta(top); !slices.Contains(tops, q) {
			tops = append(tops, q)
		}
	}
	slices.Sort(tops)
	return "^(" + strings.Join(tops, "|") + ")$"
}

// FlakyTests are the tests found flaky so far, by package: left out of
// every later run of the package's tests.
type FlakyTests struct {
	mu    sync.Mutex
	byPkg map[string][]string // package -> tests that fail on the baseline too
}

// Skip returns the -test.skip argument for the tests of pkg found flaky
// so far, or nothing.
func (f *FlakyTests) Skip(pkg string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.byPkg[pkg]) == 0 {
		return nil
	}
	return []string{"-test.skip=" + TestsPattern(f.byPkg[pkg])}
}

// FailedRun is a run of a mutant's tests of pkg that failed.
type FailedRun struct {
	Level, Pkg string
	Bin, Dir   string        // the mutant's test binary and where it ran
	Run        []string      // the arguments selecting its tests
	Timeout    time.Duration // of one run of pkg's tests at level
	Base       string        // pkg's baseline test binary at level ("" if none)
	BaseDir    string        // pkg's directory in the module
}

// ConfirmFailure decides whether a mutant's failing tests of fr.pkg reject
// it: it runs them flakyRuns times on the baseline binary of the level. The
// ones that fail there too are flaky: they are reported once, left out of
// every later run of the package's tests, and the mutant's tests run again
// without them. It returns the outcome to record.
func (f *FlakyTests) ConfirmFailure(ctx context.Context, e *Engine, fr FailedRun, out TestOutcome, depth int) (TestOutcome, error) {
	if out.Status != "fne" || len(out.Failed) == 0 || fr.Base == "" || depth > 3 {
		return out, nil
	}
	var flaky []string
	for _, name := range out.Failed {
		for range flakyRuns {
			// In the module's own directory: with -isolate copy, dir is a
			// copy holding the mutant's source, which tests may read.
			res, err := e.RunTests(ctx, fr.Base, fr.BaseDir, fr.Timeout, "-test.run="+TestsPattern([]string{name}))
			if err != nil {
				return out, err
			}
			if res.Status != "" {
				flaky = append(flaky, name)
				break
			}
		}
	}
	if len(flaky) == 0 {
		return out, nil
	}
	for _, n := range f.Add(fr.Pkg, flaky...) {
		e.Warnf("test %s of %s fails on the unmutated baseline too (flaky); it is left out of judging", n, fr.Pkg)
	}
	if len(flaky) < len(out.Failed) {
		return out, nil // a test that is not flaky still rejects the mutant
	}
	again, err := e.RunTests(ctx, fr.Bin, fr.Dir, fr.Timeout, append(fr.Run, f.Skip(fr.Pkg)...)...)
	if err != nil {
		return out, err
	}
	return f.ConfirmFailure(ctx, e, fr, again, depth+1)
}

// PassingOnRetry runs each of the failed tests of pkg's baseline binary up
// to flakyRuns times and returns those that pass at least once.
func PassingOnRetry(ctx context.Context, e *Engine, bin string, pkg *mutate.Package, failed []string) []string {
	var out []string
	for _, name := range failed {
		for range flakyRuns {
			res, err := e.RunTests(ctx, bin, pkg.Dir, max(10*time.Minute, e.cfg.Timeout), "-test.run="+TestsPattern([]string{name}))
			if err != nil {
				return nil
			}
			if res.Status == "" {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// Add records tests of pkg as flaky and returns those that were not known
// yet.
func (f *FlakyTests) Add(pkg string, names ...string) (fresh []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byPkg == nil {
		f.byPkg = map[string][]string{}
	}
	for _, n := range names {
		if !slices.Contains(f.byPkg[pkg], n) {
			f.byPkg[pkg] = append(f.byPkg[pkg], n)
			fresh = append(fresh, n)
		}
	}
	return fresh
}
