package runner

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestFunctionalFilterSelection: a mutant no test and no benchmark reaches
// is not built; a mutant's tests are only those whose baseline coverage
// reaches its site; an inert operator's mutant runs no tests. With
// FullFilter every mutant is built and runs every test.
func TestFunctionalFilterSelection(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	t.Parallel() // its verdicts do not depend on the load (see newTestCampaign)
	for _, full := range []bool{false, true} {
		t.Run(map[bool]string{false: "reached", true: "full"}[full], func(t *testing.T) {
			mod, pkgs := testModule(t, "hot")
			const pkg, file = "example.com/hot/calc", "calc/calc.go"
			orphan := mkMutant(t, mod, "orphan-spin", pkg, file, "func Orphan(", "s += i", "s += i\n\t\tperfmut_sink++")
			unbreak := mkMutant(t, mod, "find-unbreak", pkg, file, "func Find(", "\n\t\t\tbreak", "")
			spin := mkMutant(t, mod, "sum-spin", pkg, file, "func Sum(", "s += x", "s += x\n\t\tperfmut_nap()")
			spin.Helper = napHelper("calc") // censored in every sample
			spin.Operator, spin.Op, spin.Params = "spin-loop", operators.SpinLoop, map[string]any{"iterations": 20000}
			// Unused is tested, not benchmarked: an inert mutant there is
			// not built, and its reason must not say no test runs it.
			unused := mkMutant(t, mod, "unused-spin", pkg, file, "func Unused(", "p *= 3", "p *= 3\n\t\tperfmut_sink++")
			unused.Operator, unused.Op = "spin-loop", operators.SpinLoop
			c := newTestCampaign(t, mod, pkgs, append(hotMutants(t, mod)[:0:0], orphan, unbreak, spin, unused), filepath.Join(t.TempDir(), "out"))
			c.Levels, c.FullFilter, c.Verbose = []string{results.Opt}, full, true
			var log bytes.Buffer
			c.Log = &log
			rep, err := c.Run(context.Background())
			if err != nil {
				t.Fatalf("%v\n%s", err, log.String())
			}
			res := resultsAt(rep, results.Opt)
			if r := res["orphan-spin"]; r.Status != score.NoCoverage || (r.BuildSeconds == 0) == full || strings.Contains(r.Reason, "not built") == full {
				t.Errorf("orphan-spin: %s (%s), build %.2fs; want no-coverage, built only with FullFilter", r.Status, r.Reason, r.BuildSeconds)
			}
			if r := res["unused-spin"]; !full && (r.Status != score.NoCoverage || r.Reason != "no benchmark executes the mutated code; not built (inert operator: tests run on it only with -full-filter)") {
				t.Errorf("unused-spin: %s (%s), want no-coverage, not built as inert", r.Status, r.Reason)
			}
			if r := res["find-unbreak"]; r.Status != score.FNE || !strings.Contains(r.Reason, "TestFind") {
				t.Errorf("find-unbreak: %s (%s), want fne by TestFind", r.Status, r.Reason)
			}
			if r := res["sum-spin"]; r.Status != score.Killed || (r.TestSeconds == 0) == full {
				t.Errorf("sum-spin: %s, tests %.2fs; want killed, tested only with FullFilter", r.Status, r.TestSeconds)
			}
			// Per-test coverage: Find is reached by TestFind alone.
			mutantRun := regexp.MustCompile(`/m\d+/opt/example\.com_hot_calc-\w+\.test -test\.v=test2json -test\.paniconexit0 -test\.timeout=0 '-test\.run=\^\(TestFind\)\$'\n`)
			if ran := mutantRun.MatchString(log.String()); ran == full {
				t.Errorf("find-unbreak ran only TestFind: %v, want %v\n%s", ran, !full, log.String())
			}
		})
	}
}

// TestCoverTestsSkipsBenchmarks: testdata/extinline's test binary lists one
// test and one benchmark (in an external test package with a TestMain);
// the test-coverage step runs one process, for the test, and none for the
// benchmark, which -test.run would not run anyway.
func TestCoverTestsSkipsBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	mod, pkgs := testModule(t, "extinline")
	m := mkMutant(t, mod, "unbreak", "example.com/extinline/ext", "ext/ext.go", "func HasPrefixAny(", "\n\t\t\tbreak", "")
	m.Helper, m.HelperFile = "", ""
	c := newTestCampaign(t, mod, pkgs, []mutate.Mutant{m}, filepath.Join(t.TempDir(), "out"))
	c.Levels, c.Verbose = []string{results.Opt}, true
	var log bytes.Buffer
	c.Log = &log
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	var runs []string
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, "-test.coverprofile=") && strings.Contains(l, "-test.bench=^$") {
			runs = append(runs, regexp.MustCompile(`'?-test\.run=\S+`).FindString(l))
		}
	}
	if want := []string{`'-test.run=^(TestHasPrefixAny)$'`}; strings.Join(runs, " ") != strings.Join(want, " ") {
		t.Errorf("test coverage runs %q, want %q", runs, want)
	}
	if !strings.Contains(log.String(), "perfmut: test coverage of 1 test\n") {
		t.Errorf("log does not say \"test coverage of 1 test\":\n%s", log.String())
	}
}
