package runner

import (
	"slices"
	"sort"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
)

// coverTestDeadline bounds one test's coverage run: ten times the
// package's whole baseline test time, at least 30 s (coverage slows code).
func (b *baseline) coverTestDeadline(pkg string) time.Duration {
	var d time.Duration
	for _, byPkg := range b.testTime {
		d = max(d, byPkg[pkg])
	}
	return max(10*d, 30*time.Second)
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
	full := c.FullFilter || c.Isolate == isolateCopy
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
		if unsure || tc == nil || tc.All {
			sel[pkg] = nil
			continue
		}
		names := slices.Clone(tc.Always)
		for name, blocks := range tc.Tests {
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
