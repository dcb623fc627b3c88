package runner

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/perfmut/perfmut/mutate"
)

// FlakyRuns is how many times a test that failed on a mutant is run again
// on the baseline binary before the mutant is called fne: a test that
// fails there too is flaky, not rejecting the mutant.
const FlakyRuns = 5

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// testsPattern is a -test.run/-test.skip pattern matching the top-level
// tests of names (a subtest's whole parent).
func testsPattern(names []string) string {
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

// skipFlaky returns the -test.skip argument for the tests of pkg found
// flaky so far, or nothing.
func (r *run) skipFlaky(pkg string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.flaky[pkg]) == 0 {
		return nil
	}
	return []string{"-test.skip=" + testsPattern(r.flaky[pkg])}
}

// confirmFailure decides whether a mutant's failing tests of pkg reject
// it: it runs them FlakyRuns times on the baseline binary of the level. The
// ones that fail there too are flaky: they are reported once, left out of
// every later run of pkg's tests, and the mutant's tests run again
// without them. It returns the outcome to record.
func (r *run) confirmFailure(ctx context.Context, level, pkg, bin, dir string, out TestOutcome, run []string, depth int) (TestOutcome, error) {
	base := r.base.bins[level][pkg]
	if out.Status != "fne" || len(out.Failed) == 0 || base == "" || depth > 3 {
		return out, nil
	}
	var flaky []string
	for _, name := range out.Failed {
		for range FlakyRuns {
			// In the module's own directory: with -isolate copy, dir is a
			// copy holding the mutant's source, which tests may read.
			res, err := r.runTests(ctx, base, r.pkgs[pkg].Dir, r.testTimeout(level, pkg), "-test.run="+testsPattern([]string{name}))
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
	for _, n := range r.addFlaky(pkg, flaky...) {
		r.warnf("test %s of %s fails on the unmutated baseline too (flaky); it is left out of judging", n, pkg)
	}
	if len(flaky) < len(out.Failed) {
		return out, nil // a test that is not flaky still rejects the mutant
	}
	again, err := r.runTests(ctx, bin, dir, r.testTimeout(level, pkg), append(run, r.skipFlaky(pkg)...)...)
	if err != nil {
		return out, err
	}
	return r.confirmFailure(ctx, level, pkg, bin, dir, again, run, depth+1)
}

// passingOnRetry runs each of the failed tests of pkg's baseline binary up
// to FlakyRuns times and returns those that pass at least once.
func (r *run) passingOnRetry(ctx context.Context, bin string, pkg *mutate.Package, level string, failed []string) []string {
	var out []string
	for _, name := range failed {
		for range FlakyRuns {
			res, err := r.runTests(ctx, bin, pkg.Dir, max(10*time.Minute, r.c.Timeout), "-test.run="+testsPattern([]string{name}))
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

// addFlaky records tests of pkg as flaky (left out of every later run of
// its tests) and returns those that were not known yet.
func (r *run) addFlaky(pkg string, names ...string) (fresh []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.flaky == nil {
		r.flaky = map[string][]string{}
	}
	for _, n := range names {
		if !slices.Contains(r.flaky[pkg], n) {
			r.flaky[pkg] = append(r.flaky[pkg], n)
			fresh = append(fresh, n)
		}
	}
	return fresh
}
