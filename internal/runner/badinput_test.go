package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// runErr runs a one-mutant campaign on testdata/name at levels (default
// opt) and returns its log and error.
func runErr(t *testing.T, name, out string, levels ...string) (string, error) {
	mod, pkgs := testModule(t, name)
	m := mkMutant(t, mod, "double-spin", "example.com/"+name+"/lib", "lib/lib.go", "func Double(", "r += n", "r += n\n\t\tperfmut_sink++")
	m.Helper = "package lib\n\nvar perfmut_sink int\n"
	if out == "" {
		out = filepath.Join(t.TempDir(), "out")
	}
	c := newTestCampaign(t, mod, pkgs, nil, out)
	c.Mutants = append(c.Mutants, m)
	c.Levels = []string{results.Opt}
	if len(levels) > 0 {
		c.Levels = levels
	}
	var log strings.Builder
	c.Log = io.MultiWriter(c.Log, &log)
	_, err := c.Run(context.Background())
	return log.String(), err
}

func TestBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modules")
	}
	for _, tc := range []struct {
		name, module, out string
		want              []string
	}{
		{"baseline tests fail", "failing", "", []string{"baseline tests fail in package example.com/failing/lib", "TestDouble", "fix the tests"}},
		// A test that needs optimizations (an allocation count) fails
		// only at noopt: the message says how to leave that level out.
		{"baseline tests fail at noopt", "optonly", "", []string{"baseline tests fail in package example.com/optonly/lib when built with -gcflags=all=-N -l (failing tests: TestSumAllocs)", "or measure only optimized builds with -opt on"}},
		// Found before the tests' coverage runs (seconds on a real module).
		{"no benchmarks", "nobench", "", []string{"no benchmarks in scope", "example.com/nobench/lib"}},
		{"out not writable", "hot", "/dev/null/out", []string{"-out /dev/null/out: cannot create it", "not a directory"}},
		// mkdir fails below a writable directory (as below a read-only
		// file system, which root's tests cannot make): bad input too.
		{"out cannot be created", "hot", filepath.Join(os.TempDir(), strings.Repeat("n", 300), "out"), []string{": cannot create it: mkdir ", "file name too long; choose another directory with -out"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			module := tc.module
			var err error
			if module == "hot" {
				mod, pkgs := testModule(t, "hot")
				c := newTestCampaign(t, mod, pkgs, hotMutants(t, mod)[:1], tc.out)
				_, err = c.Run(context.Background())
			} else {
				var log string
				log, err = runErr(t, module, tc.out, results.Opt, results.NoOpt)
				if strings.Contains(log, "test coverage") && tc.module == "nobench" {
					t.Errorf("test coverage ran before the missing benchmarks were found:\n%s", log)
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error is not one line: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
			// The results directory is the user's choice: exit 2.
			var ie *inputerr.Error
			if errors.As(err, &ie) != (tc.module == "hot") {
				t.Errorf("error %q: inputerr.Error %v, want %v", msg, errors.As(err, &ie), tc.module == "hot")
			}
		})
	}
}

// TestBadBaselineBenchmarks: a baseline benchmark that panics and one that
// never returns are left out of judging, each with a warning naming it and
// why; the campaign goes on with the good one and leaves no process.
// The benchmarks are listed in one process with a deadline of
// -bench-timeout: 10 s, not less, for on a loaded machine a listing run
// that starts the -cover binary and waits for the panic's message can
// take seconds, and would be taken for the hang. The mutant's spin makes
// each of its samples seconds of work: censored, killed at the first
// look (see newTestCampaign).
func TestBadBaselineBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module")
	}
	tmp := privateTmp(t)
	mod, pkgs := testModule(t, "badbench")
	m := mkMutant(t, mod, "double-spin", "example.com/badbench/lib", "lib/lib.go", "func Double(", "r += n", "r += n\n\t\tfor perfmut_i := 0; perfmut_i < 10000000; perfmut_i++ {\n\t\t\tperfmut_sink++\n\t\t}")
	m.Helper = "package lib\n\nvar perfmut_sink int\n"
	c := newTestCampaign(t, mod, pkgs, []mutate.Mutant{m}, filepath.Join(t.TempDir(), "out"))
	c.Levels = []string{results.Opt}
	c.BenchTimeout = 10 * time.Second
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(rep.Warnings, "\n")
	for _, want := range []string{
		"baseline benchmark BenchmarkPanics of example.com/badbench/lib fails: panic: broken on purpose; it is left out of judging",
		"baseline benchmark BenchmarkHangs of example.com/badbench/lib did not finish one iteration within -bench-timeout 10s; it is left out of judging",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings %q lack %q", w, want)
		}
	}
	r := rep.Mutants[0].Results[results.Opt]
	if r.Status != score.Killed || len(r.Benchmarks) == 0 || r.Benchmarks[0].Benchmark != "BenchmarkDouble" {
		t.Errorf("double-spin: %s (%s) on %+v, want killed by BenchmarkDouble", r.Status, r.Reason, r.Benchmarks)
	}
	if p := leftovers(tmp); len(p) > 0 {
		t.Errorf("processes left behind:\n%s", strings.Join(p, "\n"))
	}
}

// TestFlakyTest: a test that fails on a mutant and also on the unmutated
// baseline is flaky: reported, left out, and the mutant is not fne. With
// per-test coverage the flaky test fails in its own coverage run and is
// found there; with FullFilter it fails on the mutant.
func TestFlakyTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	for _, tc := range []struct {
		full bool
		warn string
	}{
		{false, "test TestFlaky of example.com/flaky/lib failed once on the unmutated baseline and passed when run again (flaky)"},
		{true, "test TestFlaky of example.com/flaky/lib fails on the unmutated baseline too (flaky)"},
	} {
		t.Run(fmt.Sprint("full=", tc.full), func(t *testing.T) {
			privateTmp(t)
			mod, pkgs := testModule(t, "flaky")
			m := mkMutant(t, mod, "triple-spin", "example.com/flaky/lib", "lib/lib.go", "func Triple(", "r += n", "r += n\n\t\tperfmut_sink++")
			m.Helper = "package lib\n\nvar perfmut_sink int\n"
			c := newTestCampaign(t, mod, pkgs, []mutate.Mutant{m}, filepath.Join(t.TempDir(), "out"))
			c.Levels, c.FullFilter = []string{results.Opt}, tc.full
			rep, err := c.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if r := rep.Mutants[0].Results[results.Opt]; r.Status == score.FNE {
				t.Errorf("triple-spin: fne (%s), want the flaky test left out", r.Reason)
			}
			if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, tc.warn) {
				t.Errorf("warnings %q do not report TestFlaky as flaky", w)
			}
		})
	}
}

// TestSkipBench: benchmarks matched by Campaign.SkipBench (-skip-bench,
// skip-benchmarks:) never run: no warning about them, no deadline spent.
func TestSkipBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a module")
	}
	mod, pkgs := testModule(t, "badbench")
	m := mkMutant(t, mod, "double-spin", "example.com/badbench/lib", "lib/lib.go", "func Double(", "r += n", "r += n\n\t\tfor perfmut_i := 0; perfmut_i < 100000; perfmut_i++ {\n\t\t\tperfmut_sink++\n\t\t}")
	m.Helper = "package lib\n\nvar perfmut_sink int\n"
	c := newTestCampaign(t, mod, pkgs, []mutate.Mutant{m}, filepath.Join(t.TempDir(), "out"))
	c.Levels = []string{results.Opt}
	c.SkipBench = "^BenchmarkHangs$|^BenchmarkPanics$"
	start := time.Now()
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) > 0 {
		t.Errorf("warnings %q, want none: the skipped benchmarks never ran", rep.Warnings)
	}
	if d := time.Since(start); d > 90*time.Second {
		t.Errorf("took %s: the hanging benchmark ran", d)
	}
}
