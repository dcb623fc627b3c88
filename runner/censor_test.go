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

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestFixedIterationsAndCensoring: a mutant far slower than the baseline
// is killed on censored samples (stopped at the cap, no process left
// behind); a mutant equal to the baseline is never censored; both sides of
// every pair run the same fixed iteration count, as the benchfmt files
// show.
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
	c.Benchtime, c.SampleTime, c.CensorFactor = "", engine.DefaultSampleTime/2, 3
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
		for rd.Scan() {
			br, ok := rd.Result().(*benchfmt.Result)
			if !ok {
				continue
			}
			name := "Benchmark" + strings.TrimSuffix(br.Name.String(), engine.ProcsSuffix())
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

// TestCensorSlack: the slack is 3 x the baseline samples' spread, between
// 50 ms and 100 ms; the cap adds it to 3 x the slowest baseline sample.
func TestCensorSlack(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct{ fastest, slowest, want time.Duration }{
		{30 * ms, 31 * ms, 50 * ms},
		{30 * ms, 50 * ms, 60 * ms},
		{30 * ms, 90 * ms, 100 * ms},
	} {
		if got := engine.SlackOf(tc.fastest, tc.slowest); got != tc.want {
			t.Errorf("censorSlack(%s, %s) = %s, want %s", tc.fastest, tc.slowest, got, tc.want)
		}
	}
	r := &run{c: &Campaign{Measurement: engine.Measurement{CensorFactor: 3}}, Engine: engine.Engine{Cfg: (&Campaign{Measurement: engine.Measurement{CensorFactor: 3}}).config()}}
	it := engine.BenchIters{N: 100, Wall: 40 * ms, Slack: 30 * ms}
	if got := r.c.CensorCap(it, 50*ms); got != 180*ms {
		t.Errorf("cap with slowest 50ms = %s, want 180ms", got)
	}
	if got := r.c.CensorCap(engine.BenchIters{N: 100, Wall: 40 * ms}, 0); got != 220*ms {
		t.Errorf("cap without a derived slack = %s, want 220ms (100ms slack)", got)
	}
	if got := r.c.CensorCap(engine.BenchIters{Wall: 40 * ms}, 0); got != 0 {
		t.Errorf("time-based cap = %s, want none", got)
	}
}

// censorSeries returns a measurement of one benchmark whose metrics are
// the default ones and p99.95-ns/op, with no rounds yet, and the
// benchmark.
func censorSeries() (*measurement, engine.Benchmark) {
	b := engine.Benchmark{Pkg: "example.com/demo/kv", Name: "BenchmarkSetParallel"}
	return &measurement{
		metric: func(u string) bool { return DefaultMetric(u) || u == "p99.95-ns/op" },
		names:  map[engine.Benchmark]string{b: b.Name},
		series: map[engine.Benchmark]*series{b: {samples: map[string]*score.Sample{}, censored: map[string][]int{}}},
	}, b
}

// censorRound returns round i's values of both sides: sec/op the same
// noise on both (no shift), constant B/op and allocs/op, and p99.95-ns/op
// at base on the baseline and mut on the mutant (plus i); a censored round
// has the mutant's sec/op only.
func censorRound(i int, base, mut float64, censored bool) [2]map[string]float64 {
	t := 1e-6 * (1 + 0.01*float64((i*7)%11))
	vals := [2]map[string]float64{
		{"sec/op": t, "B/op": 64, "allocs/op": 1, "p99.95-ns/op": base + float64(i)},
		{"sec/op": t * (1 + 0.001*float64(i%2*2-1)), "B/op": 64, "allocs/op": 1, "p99.95-ns/op": mut + float64(i)},
	}
	if censored {
		vals[1] = map[string]float64{"sec/op": 3 * t}
	}
	return vals
}

// TestCensoredRoundKeepsMetrics: a censored round has only sec/op, and a
// custom metric that separates completely on its other rounds still kills
// at the look the rounds reach: at 10 rounds, on its 9 values each, with
// p = 1/C(18, 9). (It was left out of the decision for the rest of the
// mutant, which then survived on sec/op alone.)
func TestCensoredRoundKeepsMetrics(t *testing.T) {
	ms, b := censorSeries()
	rule := score.Rule{Seed: 1}.WithDefaults() // looks at 5, 10, 20, 30 rounds
	var v score.Verdict
	for i := 0; i < rule.MaxSamples && v.Decision != score.Kill; i++ {
		ms.record(b, censorRound(i, 1000, 5000, i == 2), i == 2)
		if slices.Contains(rule.Looks(), i+1) {
			v = rule.Decide(ms.forRule([]engine.Benchmark{b}))
		}
	}
	if v.Decision != score.Kill || v.Look != 2 {
		t.Fatalf("decision %s at look %d (%+v), want kill at look 2 (10 rounds)", v.Decision, v.Look, v.Tests)
	}
	var got []string
	for _, tr := range v.Tests {
		got = append(got, fmt.Sprintf("%s n=%d/%d p=%.6g padj=%.6g reject=%v excluded=%v", tr.Metric, tr.NBaseline, tr.NMutant, tr.P, tr.PAdj, tr.Reject, tr.Excluded))
	}
	want := []string{
		"sec/op n=10/10 p=0.681818 padj=0.681818 reject=false excluded=false",
		"B/op n=9/9 p=1 padj=1 reject=false excluded=true",
		"allocs/op n=9/9 p=1 padj=1 reject=false excluded=true",
		fmt.Sprintf("p99.95-ns/op n=9/9 p=%.6g padj=%.6g reject=true excluded=false", 1.0/48620, 2.0/48620),
	}
	if !slices.Equal(got, want) {
		t.Errorf("tests:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tr := v.Tests[3]; tr.P != 1.0/48620 || !slices.Equal(tr.Warnings, []string{"no value in 1 of 10 rounds: tested on the values of the others"}) {
		t.Errorf("p99.95-ns/op: p = %v (want 1/C(18, 9) = %v), warnings %q", tr.P, 1.0/48620, tr.Warnings)
	}
}

// TestCensoredRoundLooksOnce: with censored rounds (the first and the
// 13th) the rule, asked after every round, takes each look once, at its
// count of rounds (5, 10, 20, 30), on every metric: a metric short of a
// round neither holds a look back nor makes it come again.
func TestCensoredRoundLooksOnce(t *testing.T) {
	ms, b := censorSeries()
	rule := score.Rule{Seed: 1, FutilityPower: score.NoFutility}.WithDefaults()
	var looks []string
	for i := range rule.MaxSamples {
		cens := i == 0 || i == 12
		ms.record(b, censorRound(i, 1000, 1000.5, cens), cens)
		v := rule.Decide(ms.forRule([]engine.Benchmark{b}))
		if v.Look > 0 {
			looks = append(looks, fmt.Sprintf("look %d at %d rounds: %d tests", v.Look, i+1, len(v.Tests)))
		}
		if v.Decision != score.Continue && i+1 < rule.MaxSamples {
			t.Fatalf("round %d: %s, want continue", i+1, v.Decision)
		}
	}
	want := []string{"look 1 at 5 rounds: 4 tests", "look 2 at 10 rounds: 4 tests", "look 3 at 20 rounds: 4 tests", "look 4 at 30 rounds: 4 tests"}
	if !slices.Equal(looks, want) {
		t.Errorf("looks %q, want %q", looks, want)
	}
	if m := ms.series[b].samples["p99.95-ns/op"]; len(m.Baseline) != 28 {
		t.Errorf("p99.95-ns/op: %d values, want 28 of 30 rounds", len(m.Baseline))
	}
}
