package runner

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestCountCampaign: under -measure instructions, a mutant adding work to
// Sum's loop is killed on instructions/op at the first look (5 samples
// each: the counts separate completely); one that executes several times
// the baseline's instructions is censored on its pre-count in every round,
// without a run at N; the samples files name the metric. The function map
// takes the d of the benchmark the campaign counted from the baseline's
// counts (at least the counts' minimum effect, 1.005 here) and says which.
// BenchmarkTotalParallel, which also runs Sum, is skipped: which of two
// benchmarks a mutant is measured on first depends on their measured
// times, and the map's counted benchmarks on that.
func TestCountCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("counts under valgrind take a minute")
	}
	t.Parallel() // instruction counts do not depend on the load
	info, err := instr.Check(context.Background())
	if err != nil {
		t.Skipf("no instruction counts here: %v", err)
	}
	mod, pkgs := testModule(t, "hot")
	const pkg, file = "example.com/hot/calc", "calc/calc.go"
	ms := []mutate.Mutant{
		// A load, an addition, an exclusive or and a store per element:
		// about 1.75 times Sum's instructions. (perfmut_sink++ alone is
		// one memory increment, which took the place of an alignment
		// NOP in the loop: the same count as the baseline's.)
		mkMutant(t, mod, "sum-more", pkg, file, "func Sum(", "s += x", "s += x\n\t\tperfmut_sink += x\n\t\tperfmut_sink ^= s"),
		// 200 additions per element: several times the baseline's count.
		mkMutant(t, mod, "sum-spin", pkg, file, "func Sum(", "s += x", "s += x\n\t\tfor perfmut_i := 0; perfmut_i < 200; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}"),
	}
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, ms, out)
	c.Levels, c.Settings.Opt, c.Settings.FunctionMap = []string{results.Opt}, "on", true
	c.Benchtime, c.Settings.Benchtime = "", ""
	c.SampleTime = 2 * time.Millisecond
	c.SkipBench = "^BenchmarkTotalParallel$"
	c.Rule = score.Rule{MaxSamples: 5, Seed: 1}
	c.Counting = &engine.Counting{Sampler: instr.Sampler{Valgrind: info.Path}, Version: info.Version, MinEffect: instr.MinEffect}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Settings.Measure != "instructions" {
		t.Errorf("settings: measure %q, want instructions", rep.Settings.Measure)
	}
	if n := rep.Noise; n == nil || n.Measures != "instructions (valgrind "+info.Version+")" || len(n.Benchmarks) == 0 || n.Benchmarks[0].Metric != score.InstructionsPerOp || n.Benchmarks[0].N < 5 {
		t.Errorf("noise = %+v, want the counted baseline's spread (instructions/op, at least 5 samples)", n)
	}
	res := resultsAt(rep, results.Opt)
	for _, id := range []string{"sum-more", "sum-spin"} {
		lr := res[id]
		if lr == nil || lr.Status != score.Killed {
			t.Fatalf("%s: %+v, want killed", id, lr)
		}
		killedOn := ""
		for _, tr := range lr.Benchmarks {
			if tr.Reject {
				killedOn = tr.Metric
			}
		}
		if killedOn != score.InstructionsPerOp || lr.Metric != score.InstructionsPerOp || lr.MetricReason != "trial: an instruction count sees it" {
			t.Errorf("%s: killed on %q, verdict on %q (%q); want instructions/op (trial: an instruction count sees it)", id, killedOn, lr.Metric, lr.MetricReason)
		}
		mut, err := os.ReadFile(filepath.Join(out, "samples", id, results.Opt, "mut.txt"))
		if err != nil {
			t.Fatal(err)
		}
		censored := strings.Contains(string(mut), "censored in every round")
		if censored != (id == "sum-spin") || !strings.Contains(string(mut), "# pre-count of Benchmark") {
			t.Errorf("%s: mut.txt censored %v, want %v:\n%s", id, censored, id == "sum-spin", mut)
		}
		base, err := os.ReadFile(filepath.Join(out, "samples", id, results.Opt, "base.txt"))
		if err != nil || !strings.Contains(string(base), " instructions/op") {
			t.Errorf("%s: base.txt (%v) has no instructions/op line:\n%s", id, err, base)
		}
	}
	checkCountedMap(t, rep, pkg)
}

// checkCountedMap checks the function map of a campaign that counted
// BenchmarkSum of pkg alone: it says so, and Sum's factor is from the d
// of the counts.
func checkCountedMap(t *testing.T, rep *results.Report, pkg string) {
	t.Helper()
	if rep.FunctionMap == nil || !slices.Equal(rep.FunctionMap.Counted, []string{pkg + ".BenchmarkSum"}) {
		t.Fatalf("function_map = %+v, want calc.BenchmarkSum counted alone", rep.FunctionMap)
	}
	found := false
	for _, f := range rep.FunctionSensitivity {
		if f.Function != "Sum" {
			continue
		}
		found = true
		// d = 1.005 (the counts' spread is below it): the factor is
		// 1 + 0.005/share, to rounding (the map computes it its own way).
		if want := 1 + (instr.MinEffect-1)/f.Share; f.Factor == nil || f.Benchmark != pkg+".BenchmarkSum" || math.Abs(*f.Factor-want) > 1e-9 {
			got := "never"
			if f.Factor != nil {
				got = fmt.Sprint(*f.Factor)
			}
			t.Errorf("Sum: x%s by %s (share %v), want x%v by BenchmarkSum", got, f.Benchmark, f.Share, want)
		}
	}
	if !found {
		t.Errorf("no row for Sum in %+v", rep.FunctionSensitivity)
	}
}
