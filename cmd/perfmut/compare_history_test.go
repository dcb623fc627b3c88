package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/internal/testutil"
	"github.com/perfmut/perfmut/results"
)

// compareIn runs perfmut compare in dir with its reports in out and
// returns the exit code, the output and the comparison it wrote.
func compareIn(t *testing.T, dir, out string, args ...string) (int, string, *results.Comparison) {
	t.Helper()
	code, stdout, stderr, rep := compareOut(t, context.Background(), dir, out, args...)
	if rep == nil {
		t.Fatalf("exit %d, no %s\n%s%s", code, results.CompareFile, stdout, stderr)
	}
	return code, stdout + stderr, rep
}

// benchfmtSecPerOp reads a benchfmt file and returns the sec/op values of
// the named benchmark (without its "Benchmark" prefix), in file order.
func benchfmtSecPerOp(t *testing.T, file, name string) []float64 {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []float64
	rd := benchfmt.NewReader(f, file)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok || string(res.Name.Base()) != name {
			continue
		}
		if v, ok := res.Value("sec/op"); ok {
			out = append(out, v)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCompareHistoryDrift: with -history, a comparison of two identical
// versions of the 20x slower Sum of testdata/comparemod/drift.txtar warns
// that NEW drifted from the recorded distributions of the version before
// it, whatever OLD -> NEW says (a slow creep), without changing the exit
// status. Each comparison's old.txt and new.txt hold, in the benchmark
// format, the very samples of compare.json (a censored one as a comment),
// so benchstat shows the same numbers. The drift is 20x, not history.txtar's
// 2x: the two comparisons run a minute apart, and the load between them can
// move a benchmark by more than 2x on a busy machine.
func TestCompareHistoryDrift(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	repo := compareRepo(t, "drift")
	before := testutil.HashTree(t, repo)
	hist := filepath.Join(t.TempDir(), "history")
	flags := []string{"-all", "-history", hist}

	out := filepath.Join(t.TempDir(), "first")
	code, output, rep := compareIn(t, repo, out, append(flags, "HEAD~1", "HEAD~1", "./sum")...)
	if code != 0 && code != exitThreshold || len(rep.Benchmarks) != 1 || len(rep.Drift) != 0 {
		t.Fatalf("first comparison: exit %d, %d benchmarks, drift %v\n%s", code, len(rep.Benchmarks), rep.Drift, output)
	}
	sec := rep.Benchmarks[0].Metrics[0]
	if sec.Metric != "sec/op" {
		t.Fatalf("first metric %s, want sec/op", sec.Metric)
	}
	for i, side := range []struct {
		file     string
		values   []float64
		censored []int
	}{{rep.Old.Samples, sec.OldValues, sec.OldCensored}, {rep.New.Samples, sec.NewValues, sec.NewCensored}} {
		// A censored sample (stopped past the cap, on a loaded machine)
		// is a comment in the file, not a result.
		var want []float64
		for j, v := range side.values {
			if !slices.Contains(side.censored, j) {
				want = append(want, v)
			}
		}
		data, err := os.ReadFile(filepath.Join(out, side.file))
		if err != nil {
			t.Fatal(err)
		}
		got := benchfmtSecPerOp(t, filepath.Join(out, side.file), "Sum")
		if len(got) != len(want) || len(got) < 5 || strings.Count(string(data), "# censored: BenchmarkSum ") != len(side.censored) {
			t.Fatalf("side %d: %s has %d sec/op results of Sum, compare.json %d and %d censored:\n%.600s", i, side.file, len(got), len(want), len(side.censored), data)
		}
		for j := range got {
			if math.Abs(got[j]-want[j]) > 1e-9*want[j] {
				t.Errorf("side %d result %d: %s says %g sec/op, compare.json %g", i, j, side.file, got[j], want[j])
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(hist, "history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 6 {
		t.Errorf("history.jsonl has %d lines after the first comparison, want 6 (3 metrics x 2 sides)", n)
	}

	out = filepath.Join(t.TempDir(), "second")
	code, output, rep = compareIn(t, repo, out, append(flags, "HEAD", "HEAD", "./sum")...)
	if code != 0 && code != exitThreshold {
		t.Fatalf("second comparison: exit %d\n%s", code, output)
	}
	if len(rep.Drift) != 1 || rep.Drift[0].Benchmark != "BenchmarkSum" || rep.Drift[0].Metric != "sec/op" {
		t.Fatalf("second comparison: drift %+v, want BenchmarkSum sec/op\n%s", rep.Drift, output)
	}
	if want := "warning: drift: BenchmarkSum sec/op of NEW is "; !strings.Contains(output, want) {
		t.Errorf("second comparison: no %q in\n%s", want, output)
	}
	if md, err := os.ReadFile(filepath.Join(out, results.CompareMarkdownFile)); err != nil || !strings.Contains(string(md), "drift: BenchmarkSum sec/op") {
		t.Errorf("compare.md does not warn of the drift (%v):\n%s", err, md)
	}
	if testutil.HashTree(t, repo) != before {
		t.Errorf("the repository changed")
	}
}
