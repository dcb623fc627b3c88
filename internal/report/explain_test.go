package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// explainReport is a report with one survivor at opt whose sec/op test is
// t, measured against a baseline with a robust log-scale sigma of 0.03.
func explainReport(op *mutate.Operator, t score.TestResult) (*results.Report, *results.Mutant) {
	d := 0.03 / 1.4826
	base := []float64{math.Exp(-d), 1, math.Exp(d), math.Exp(-d), math.Exp(d)}
	t.Benchmark, t.Metric, t.NBaseline, t.NMutant, t.PMin = "BenchmarkA", score.SecPerOp, 30, 30, 1e-6
	rep := &results.Report{
		Settings: results.Settings{RuleSettings: results.RuleSettings{Rule: score.Rule{Alpha: 0.05, Correction: score.Holm, MaxSamples: 30, MinEffect: 1.01}}},
		Mutants: []results.Mutant{{
			Mutant: mutate.Mutant{ID: "m1", Operator: op.Name, Op: op, File: "a.go", Line: 3, Column: 2, Function: "F", Description: "d"},
			Results: map[string]*results.LevelResult{results.Opt: {
				Status:     score.Survived,
				Benchmarks: []score.TestResult{t},
				Samples:    []results.SampleSet{{Benchmark: "BenchmarkA", Metric: score.SecPerOp, Baseline: base}},
			}},
		}},
	}
	return rep, &rep.Mutants[0]
}

// TestExplain checks each kind of survivor explanation. The minimum
// detectable effect of the baseline (sigma 0.03, 30 samples, KS at 0.05)
// is exp(2.486475 * 0.03 * sqrt(2/30) / sqrt(2/pi)) = 1.0244.
func TestExplain(t *testing.T) {
	tests := []struct {
		name string
		op   *mutate.Operator
		test score.TestResult
		want explanation
	}{
		{"faster", operators.CallReplace, score.TestResult{Ratio: 0.43, RatioLo: 0.41, RatioHi: 0.45},
			explanation{whyFaster, "the mutant is faster (×0.430 [×0.410, ×0.450] on BenchmarkA): the path it disables is slower than the one it forces",
				"not a benchmark gap: the original code's choice looks slower here; worth a look on its own"}},
		// No margin in the settings (a report from before it): the
		// default, ×1.050 (the larger of 1.05 and the minimum effect).
		{"no effect", operators.LoopUnbreaker, score.TestResult{Ratio: 1.002, RatioLo: 0.99, RatioHi: 1.015, P: 0.4, PAdj: 0.4},
			explanation{whyNoEffect, "no effect that matters: BenchmarkA measured ×1.002 [×0.990, ×1.015], which rules out a median slowdown of ×1.050 (with 30 samples its benchmarks detect about ×1.024)", ""}},
		{"no effect, the rule's bound", operators.LoopUnbreaker, score.TestResult{Ratio: 1.002, RatioLo: 0.99, RatioHi: 1.015, Upper: 1.04, P: 0.4, PAdj: 0.4},
			explanation{whyNoEffect, "no effect that matters: BenchmarkA measured ×1.002 [×0.990, ×1.015], median per-round ratio at most ×1.040 (95%), which rules out a median slowdown of ×1.050 (with 30 samples its benchmarks detect about ×1.024)", ""}},
		// The rule's bound of the per-round ratios speaks, not the
		// bootstrap interval of the median.
		{"underpowered, the rule's bound", operators.LoopUnbreaker, score.TestResult{Ratio: 1.002, RatioLo: 0.99, RatioHi: 1.015, Upper: 1.08, P: 0.4, PAdj: 0.4},
			explanation{whyUnderpowered, "underpowered: BenchmarkA measured ×1.002 [×0.990, ×1.015], median per-round ratio at most ×1.080 (95%), which does not rule out a median slowdown of ×1.050 (with 30 samples its benchmarks detect about ×1.024)",
				"rerun it with more samples (-max-samples 60) or give it a benchmark with less noise"}},
		{"underpowered", operators.LoopUnbreaker, score.TestResult{Ratio: 1.01, RatioLo: 0.99, RatioHi: 1.07, P: 0.1, PAdj: 0.1},
			explanation{whyUnderpowered, "underpowered: BenchmarkA measured ×1.010 [×0.990, ×1.070], which does not rule out a median slowdown of ×1.050 (with 30 samples its benchmarks detect about ×1.024)",
				"rerun it with more samples (-max-samples 60) or give it a benchmark with less noise"}},
		{"below the minimum effect", operators.LoopUnbreaker, score.TestResult{Ratio: 1.005, RatioLo: 1.002, RatioHi: 1.008, P: 0.001, PAdj: 0.001, Threshold: 0.02, BelowMinEffect: true},
			explanation{whyBelowMin, "slower by less than the minimum effect ×1.010: ×1.005 [×1.002, ×1.008] on BenchmarkA", ""}},
		{"lock contention", operators.LockContention, score.TestResult{Ratio: 1.002, RatioLo: 0.99, RatioHi: 1.015, P: 0.4, PAdj: 0.4},
			explanation{whyNoEffect, "no effect that matters: BenchmarkA measured ×1.002 [×0.990, ×1.015], which rules out a median slowdown of ×1.050 (with 30 samples its benchmarks detect about ×1.024)",
				"one goroutine never waits for a lock, and the serial benchmarks show no cost: add a benchmark that runs this code under b.RunParallel"}},
		// The serial benchmark may well show a cost (+8 % to +42 %): more
		// samples, not a parallel benchmark.
		{"lock contention, cost not ruled out", operators.LockContention, score.TestResult{Ratio: 1.08, RatioLo: 0.99, RatioHi: 1.42, P: 0.1, PAdj: 0.1},
			explanation{whyUnderpowered, "underpowered: BenchmarkA measured ×1.080 [×0.990, ×1.420], which does not rule out a median slowdown of ×1.050 (with 30 samples its benchmarks detect about ×1.024)",
				"rerun it with more samples (-max-samples 60) or give it a benchmark with less noise"}},
	}
	for _, tt := range tests {
		rep, m := explainReport(tt.op, tt.test)
		if got := explain(rep, m, results.Opt); got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

// TestTextFasterApart checks that a faster survivor is listed apart from
// the survivors, not ranked among the benchmark gaps.
func TestTextFasterApart(t *testing.T) {
	rep, _ := explainReport(operators.CallReplace, score.TestResult{Ratio: 0.43, RatioLo: 0.41, RatioHi: 0.45})
	var b bytes.Buffer
	if err := Text(&b, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "Survivors:") || !strings.Contains(out, "Faster: 1 surviving mutant ran faster than the original") ||
		!strings.Contains(out, "opt    the mutant is faster (×0.430 [×0.410, ×0.450] on BenchmarkA)") {
		t.Errorf("faster survivor not shown apart:\n%s", out)
	}
}

// TestZeroValid checks the wording of a report whose mutants were all
// excluded: no score of 0%, and no claim that every mutant was killed.
func TestZeroValid(t *testing.T) {
	rep := &results.Report{Mutants: []results.Mutant{{
		Mutant:  mutate.Mutant{ID: "m1", Operator: "oblivion", File: "a.go", Line: 1, Column: 1},
		Results: map[string]*results.LevelResult{results.Opt: {Status: score.CompileError, Reason: "x"}},
	}}}
	for name, render := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return Text(b, rep, Options{}) },
		"markdown": func(b *bytes.Buffer) error { return writeMarkdown(b, rep, Options{}) },
	} {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, "0.0%") || strings.Contains(out, "Every valid mutant was killed") ||
			!strings.Contains(out, "No valid mutant: every one was excluded (see the statuses), so there is no score.") ||
			!strings.Contains(out, "No valid mutant to kill: every mutant was excluded.") {
			t.Errorf("%s:\n%s", name, out)
		}
	}
}

// TestHTMLWhy checks that report.html says why a survivor survived.
func TestHTMLWhy(t *testing.T) {
	rep, _ := explainReport(operators.LockContention, score.TestResult{Ratio: 1.01, RatioLo: 0.99, RatioHi: 1.07, P: 0.1, PAdj: 0.1})
	var b bytes.Buffer
	if err := writeHTML(&b, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	want := `<p class="why">Why: underpowered: BenchmarkA measured ×1.010 [×0.990, ×1.070], which does not rule out a median slowdown of ×1.050 (with 30 samples its benchmarks detect about ×1.024). Hint: rerun it with more samples (-max-samples 60) or give it a benchmark with less noise.</p>`
	if !strings.Contains(b.String(), want) {
		t.Errorf("report.html lacks %q", want)
	}
}

// TestExplainFasterMixed: one benchmark clearly faster and another unclear
// (its interval straddles 1) reads as faster; one clearly slower does not.
func TestExplainFasterMixed(t *testing.T) {
	rep, m := explainReport(operators.CallReplace, score.TestResult{Ratio: 0.457, RatioLo: 0.333, RatioHi: 0.711})
	r := m.Results[results.Opt]
	other := score.TestResult{Benchmark: "BenchmarkB", Metric: score.SecPerOp, NBaseline: 5, NMutant: 5, Ratio: 0.562, RatioLo: 0.371, RatioHi: 1.553}
	r.Benchmarks = append(r.Benchmarks, other)
	if got := explain(rep, m, results.Opt); got.Why != whyFaster || !strings.Contains(got.Text, "×0.457 [×0.333, ×0.711] on BenchmarkA") {
		t.Errorf("mixed: %+v, want faster on BenchmarkA", got)
	}
	r.Benchmarks[1].RatioLo, r.Benchmarks[1].Ratio = 1.1, 1.3
	if got := explain(rep, m, results.Opt); got.Why == whyFaster {
		t.Errorf("one benchmark clearly slower: %+v, want not faster", got)
	}
}

// TestExplainWideInterval: a survivor of 5 samples on a benchmark whose
// samples vary 2 to 3x, with a ratio interval of [0.50, 1.76], is
// underpowered: a slowdown of up to 76 % is not ruled out, although it is
// below what its benchmarks detect. (It read "no effect its benchmarks can
// see".)
func TestExplainWideInterval(t *testing.T) {
	rep, m := explainReport(operators.Oblivion, score.TestResult{Ratio: 1.02, RatioLo: 0.5, RatioHi: 1.76, P: 0.5, PAdj: 0.5})
	r := m.Results[results.Opt]
	r.Benchmarks[0].NBaseline, r.Benchmarks[0].NMutant = 5, 5
	r.Samples[0].Baseline = []float64{250e-9, 707e-9, 310e-9, 520e-9, 400e-9}
	got := explain(rep, m, results.Opt)
	if got.Why != whyUnderpowered || !strings.HasPrefix(got.Text, "underpowered: BenchmarkA measured ×1.020 [×0.500, ×1.760], which does not rule out a median slowdown of ×1.050 (with 5 samples its benchmarks detect about ×") {
		t.Errorf("got %+v, want underpowered", got)
	}
}

// TestReproduceCommand: the check names the module (-C) and a results
// directory other than the default (-out), quoted for a shell.
func TestReproduceCommand(t *testing.T) {
	m := &results.Mutant{}
	m.ID = "5c0e9a7f3b18"
	for _, tc := range []struct{ modDir, out, want string }{
		{"", "", "perfmut reproduce 5c0e9a7f3b18"},
		{"/src/demo", "perfmut-out", "perfmut reproduce -C /src/demo 5c0e9a7f3b18"},
		{"/home/u/my mod", "/tmp/res", "perfmut reproduce -C '/home/u/my mod' -out /tmp/res 5c0e9a7f3b18"},
	} {
		if got := reproduceCommand(&results.Report{Dir: tc.modDir}, m, tc.out); got != tc.want {
			t.Errorf("reproduceCommand(%q, %q) = %q, want %q", tc.modDir, tc.out, got, tc.want)
		}
	}
}

// TestExplainWidest: of two benchmarks, the one whose bound leaves the
// larger slowdown open speaks for the survivor, not the one with the
// larger median ratio.
func TestExplainWidest(t *testing.T) {
	rep, m := explainReport(operators.Oblivion, score.TestResult{Ratio: 1.02, RatioLo: 1.0, RatioHi: 1.03, Upper: 1.03})
	r := m.Results[results.Opt]
	r.Benchmarks = append(r.Benchmarks, score.TestResult{Benchmark: "BenchmarkB", Metric: score.SecPerOp, NBaseline: 30, NMutant: 30, PMin: 1e-6, Ratio: 1.01, RatioLo: 0.8, RatioHi: 1.3, Upper: 1.3})
	got := explain(rep, m, results.Opt)
	if got.Why != whyUnderpowered || !strings.HasPrefix(got.Text, "underpowered: BenchmarkB measured ×1.010 [×0.800, ×1.300], median per-round ratio at most ×1.300 (95%), which does not rule out a median slowdown of ×1.050") {
		t.Errorf("got %+v, want underpowered on BenchmarkB", got)
	}
}
