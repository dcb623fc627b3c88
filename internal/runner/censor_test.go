package runner

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestFixedIterationsAndCensoring: a mutant far slower than the baseline
// is killed on censored samples (stopped at the cap, no process left
// behind); a mutant equal to the baseline is never censored; both sides of
// every pair run the same fixed iteration count, as the benchfmt files
// show. The cap is 10 times the slowest baseline sample: the slow
// mutant's samples (seconds of work each) still run past it, and an
// unchanged binary's sample would have to be stalled ten times as long as
// the slowest baseline sample by the load to reach it, where at 3 times
// a stall of twice the baseline's first sample plus 50 ms would do.
func TestFixedIterationsAndCensoring(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	tmp := privateTmp(t)
	mod, pkgs := testModule(t, "hot")
	const pkg, file = "example.com/hot/calc", "calc/calc.go"
	slow := mkMutant(t, mod, "sum-slow", pkg, file, "func Sum(", "s := 0", "s := 0\n\tfor perfmut_i := 0; perfmut_i < 3000000; perfmut_i++ {\n\t\tperfmut_sink += perfmut_i\n\t}")
	same := mkMutant(t, mod, "sum-same", pkg, file, "func Sum(", "s := 0", "s := 0 + perfmut_zero")
	same.Helper = "package calc\n\nconst perfmut_zero = 0\n"
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, nil, out)
	c.Mutants = append(c.Mutants, slow, same)
	c.Levels = []string{results.Opt}
	c.Benchtime, c.SampleTime, c.CensorFactor = "", engine.DefaultSampleTime/2, 10
	c.KeepEquivalent = true // sum-same compiles to the baseline's code: measure it anyway
	c.Rule = score.Rule{MaxSamples: 5, Seed: 1}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res := resultsAt(rep, results.Opt)
	r := res["sum-slow"]
	if r.Status != score.Killed {
		t.Fatalf("sum-slow: %s (%s), want killed", r.Status, r.Reason)
	}
	for _, s := range r.Samples {
		if s.Metric != "sec/op" {
			continue
		}
		if len(s.MutantCensored) != len(s.Mutant) || len(s.Mutant) != 5 {
			t.Errorf("sum-slow %s: censored %v of %d mutant samples, want all 5", s.Benchmark, s.MutantCensored, len(s.Mutant))
		}
	}
	for _, tr := range r.Benchmarks {
		if tr.Metric == "sec/op" && math.Abs(tr.P-1.0/252) > 1e-12 {
			t.Errorf("sum-slow %s: p = %v, want 1/252 (every mutant sample above every baseline sample)", tr.Benchmark, tr.P)
		}
	}
	if p := leftovers(tmp); len(p) > 0 {
		t.Errorf("processes left behind:\n%s", strings.Join(p, "\n"))
	}

	r = res["sum-same"]
	if len(r.Samples) == 0 || len(r.Iterations) == 0 {
		t.Fatalf("sum-same: %s (%s), no samples or iterations", r.Status, r.Reason)
	}
	for _, s := range r.Samples {
		if len(s.MutantCensored) > 0 {
			t.Errorf("sum-same %s %s: censored samples %v, want none", s.Benchmark, s.Metric, s.MutantCensored)
		}
	}
	// Both benchfmt files: every result of a benchmark ran its N.
	seen := 0
	for side, f := range r.Samples[0].Files {
		fh, err := os.Open(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		rd := benchfmt.NewReader(fh, f)
		procs := "" // go test's GOMAXPROCS suffix
		if p := runtime.GOMAXPROCS(0); p > 1 {
			procs = "-" + strconv.Itoa(p)
		}
		for rd.Scan() {
			br, ok := rd.Result().(*benchfmt.Result)
			if !ok {
				continue
			}
			name := "Benchmark" + strings.TrimSuffix(br.Name.String(), procs)
			if want := r.Iterations[name]; br.Iters != want {
				t.Errorf("side %d: %s ran %d iterations, want the fixed %d", side, name, br.Iters, want)
			}
			seen++
		}
		fh.Close()
	}
	if seen < 10 {
		t.Errorf("read %d results from the benchfmt files, want at least 10 (5 rounds, 2 sides)", seen)
	}
}

// TestGrowingBenchmark: a benchmark whose cost per operation grows with
// b.N (it holds b.N elements) still shows a slower mutant, because both
// sides run the same fixed iteration count, as the benchfmt files show.
// The spin costs about 50 times an insertion (which shifts about 5,000
// elements at the count a 20 ms sample takes), far beyond a loaded
// machine's noise: the kill does not depend on the load.
func TestGrowingBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	mod, pkgs := testModule(t, "growing")
	m := mkMutant(t, mod, "insert-spin", "example.com/growing/deque", "deque/deque.go", "func (d *Deque) Insert(", "d.buf[i] = x",
		"d.buf[i] = x\n\tfor perfmut_i := 0; perfmut_i < 100000; perfmut_i++ {\n\t\tperfmut_sink += perfmut_i\n\t}")
	m.Helper = "package deque\n\nvar perfmut_sink int\n"
	c := newTestCampaign(t, mod, pkgs, []mutate.Mutant{m}, filepath.Join(t.TempDir(), "out"))
	c.Levels = []string{results.Opt}
	c.Benchtime, c.SampleTime, c.CensorFactor = "", engine.DefaultSampleTime, 3
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Mutants[0].Results[results.Opt]
	if r.Status != score.Killed {
		t.Fatalf("insert-spin: %s (%s), want killed", r.Status, r.Reason)
	}
	n := r.Iterations["BenchmarkInsert"]
	if n < 2 {
		t.Fatalf("BenchmarkInsert ran %d iterations a sample, want a fixed count of at least 2 (iterations %v)", n, r.Iterations)
	}
	if len(r.Samples) == 0 {
		t.Fatal("insert-spin: no samples")
	}
	if got := benchfmtIters(t, filepath.Join(c.Out, r.Samples[0].Files[0])); !slices.Equal(slices.Compact(got), []int{n}) {
		t.Errorf("baseline samples ran %v iterations, want every one %d", got, n)
	}
}

// benchfmtIters is the iteration count of every result in a benchfmt file.
func benchfmtIters(t *testing.T, file string) []int {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var iters []int
	rd := benchfmt.NewReader(fh, file)
	for rd.Scan() {
		if br, ok := rd.Result().(*benchfmt.Result); ok {
			iters = append(iters, br.Iters)
		}
	}
	return iters
}
