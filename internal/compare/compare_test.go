package compare

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestComparedResultMissingMetric: a metric that missed a censored round
// (NEW's third sample, which has only sec/op) is decided on its other
// rounds, with a warning, and a look is taken at the rounds' count.
func TestComparedResultMissingMetric(t *testing.T) {
	st := &compared{
		b: engine.Benchmark{Pkg: "example.com/m", Name: "BenchmarkX"}, it: engine.BenchIters{N: 100},
		vals: map[string]*[2][]float64{}, cens: map[string]*[2][]int{}, missing: map[string][]int{},
	}
	// Seven rounds, NEW's third censored (it has only sec/op).
	rounds := [][2]map[string]float64{
		{{"sec/op": 1, "B/op": 10}, {"sec/op": 2, "B/op": 20}},
		{{"sec/op": 1.1, "B/op": 10}, {"sec/op": 2.1, "B/op": 20}},
		{{"sec/op": 1.2, "B/op": 10}, {"sec/op": 9}},
		{{"sec/op": 1.3, "B/op": 10}, {"sec/op": 2.3, "B/op": 20}},
		{{"sec/op": 1.4, "B/op": 10}, {"sec/op": 2.4, "B/op": 20}},
		{{"sec/op": 1.5, "B/op": 10}, {"sec/op": 2.5, "B/op": 20}},
		{{"sec/op": 1.6, "B/op": 10}, {"sec/op": 2.6, "B/op": 20}},
	}
	for i, vals := range rounds {
		st.record(vals, [2]bool{false, i == 2}, engine.DefaultMetric)
	}
	if want := map[string][]int{"sec/op": nil, "B/op": {2}}; !reflect.DeepEqual(st.missing, want) || st.rounds != 7 {
		t.Fatalf("missing %v after %d rounds, want %v after 7", st.missing, st.rounds, want)
	}
	st.change = score.Rule{MinEffect: 1.05, MaxSamples: 7, MinSamples: 7}.DecideChange(st.samples())
	if st.change.Look != 1 {
		t.Errorf("look %d, want 1 (7 rounds)", st.change.Look)
	}
	cb := st.result()
	if cb.Status != results.Measured || len(cb.Metrics) != 2 {
		t.Fatalf("result %+v", cb)
	}
	// The paired test of the 6 rounds with a B/op: every ratio 2, p = 2^-6;
	// constant on each side, a deterministic increase.
	b := cb.Metrics[1]
	if b.Metric != "B/op" || b.Verdict != score.Slower || b.Ratio != 2 || b.P != 1.0/64 {
		t.Errorf("B/op: %+v; want slower (a deterministic increase), ratio 2, p 1/64 (2^-6: every one of 6 rounds slower)", b)
	}
	if want := []string{"no value in 1 of 7 rounds: tested on the values of the others"}; !reflect.DeepEqual(b.Warnings, want) {
		t.Errorf("B/op warnings %q, want %q", b.Warnings, want)
	}
	if s := cb.Metrics[0]; s.Metric != "sec/op" || !reflect.DeepEqual(s.NewCensored, []int{2}) || s.New != 2.4 || s.P != 1.0/128 {
		t.Errorf("sec/op: %+v; want NEW censored in round 3, median 2.4, p 1/128 (2^-7)", s)
	}
}

func TestSelectionHelpers(t *testing.T) {
	lines := map[string][]changes.Range{"a.go": {{Start: 3, End: 4}}, "sub/b.go": {{Start: 10, End: 10}}, "sub/b_test.go": {{Start: 1, End: 1}}, "README.md": {{Start: 1, End: 1}}}
	got := changedPackages("example.com/m", lines)
	want := map[string][]string{"example.com/m": {"a.go"}, "example.com/m/sub": {"sub/b.go"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changedPackages = %v, want %v", got, want)
	}
	list := []listedPackage{
		{ImportPath: "example.com/m", TestGoFiles: []string{"a_test.go"}},
		{ImportPath: "example.com/m/sub", Deps: []string{"example.com/m"}},                                                  // no tests
		{ImportPath: "example.com/m/use", XTestGoFiles: []string{"x_test.go"}, XTestImports: []string{"example.com/m/sub"}}, // its tests import sub, which imports m
		{ImportPath: "example.com/m/other", TestGoFiles: []string{"o_test.go"}},
	}
	if got := reaching(list, map[string][]string{"example.com/m": {"a.go"}}); !reflect.DeepEqual(got, []string{"example.com/m", "example.com/m/use"}) {
		t.Errorf("reaching = %v", got)
	}
	bc := &engine.BenchCoverage{Blocks: map[string][]engine.CovBlock{
		"example.com/m/a.go":     {{StartLine: 1, EndLine: 2, CountN: 1, Count2N: 1}, {StartLine: 4, EndLine: 6, CountN: 5, Count2N: 10}},
		"example.com/m/sub/b.go": {{StartLine: 9, EndLine: 11, CountN: 1, Count2N: 1}},
	}}
	if f, loop := changedRun(bc, "example.com/m", lines); f != "a.go" || !loop {
		t.Errorf("changedRun = %s, %v; want a.go in the timed loop", f, loop)
	}
	if f, loop := changedRun(bc, "example.com/m", map[string][]changes.Range{"sub/b.go": {{Start: 10, End: 10}}}); f != "sub/b.go" || loop {
		t.Errorf("changedRun = %s, %v; want sub/b.go in setup only", f, loop)
	}
}

func TestDrifts(t *testing.T) {
	at := func(day int) time.Time { return time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC) }
	entry := func(commit string, day int, machine string, values ...float64) results.HistoryEntry {
		return results.HistoryEntry{Time: at(day), Module: "m", Commit: commit, Machine: machine, Package: "m", Benchmark: "BenchmarkX", Metric: "sec/op", Values: values}
	}
	base := []float64{100, 101, 102, 103, 104, 100.5, 101.5, 102.5, 103.5, 104.5}
	creep := make([]float64, len(base))
	for i, v := range base {
		creep[i] = v * 1.2
	}
	past := []results.HistoryEntry{
		entry("c1", 1, "here", base...),
		entry("c2", 2, "here", base...),
		entry("c0", 1, "elsewhere", creep...), // another machine: not compared
	}
	// NEW is 1.2x the oldest record on this machine: every value above
	// every reference value, p = 1/C(20,10).
	cur := []results.HistoryEntry{entry("c2", 3, "here", base...), entry("c3", 3, "here", creep...)}
	got := drifts(past, cur, "c3", 0.05, 1.05)
	if len(got) != 1 || got[0].Since != "c1" || got[0].Entries != 2 || got[0].Ratio < 1.19 || got[0].P != 1/184756.0 {
		t.Fatalf("drifts = %+v", got)
	}
	if s := driftWarning(got[0]); !strings.HasPrefix(s, "drift: BenchmarkX sec/op of NEW is 1.2x the oldest of its 2 recorded distributions on this machine (c1, 2026-11-01; p=5.4e-06)") {
		t.Errorf("warning %q", s)
	}
	if got := drifts(past, cur, "c3", 0.05, 1.25); len(got) != 0 {
		t.Errorf("a 1.2x drift under a minimum effect of 1.25: %+v", got)
	}
	if got := drifts(past, []results.HistoryEntry{entry("c3", 3, "here", base...)}, "c3", 0.05, 1.05); len(got) != 0 {
		t.Errorf("no drift reported as %+v", got)
	}
	if got := drifts(nil, cur, "c3", 0.05, 1.05); len(got) != 0 {
		t.Errorf("no history, drifts %+v", got)
	}
}

// A changed file the build constraints exclude changes no benchmark.
func TestBuiltLines(t *testing.T) {
	w, err := engine.NewWorkspace(engine.Config{Module: mutate.Module{Dir: "/mod"}}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &compareSide{w: w, list: []listedPackage{{ImportPath: "m/sub", Dir: "/mod/sub", IgnoredGoFiles: []string{"old.go"}}}}
	lines := map[string][]changes.Range{"sub/old.go": {{Start: 1, End: 2}}, "sub/new.go": {{Start: 3, End: 3}}}
	if got := s.built(lines); len(got) != 1 || got["sub/new.go"] == nil {
		t.Errorf("built = %v, want only sub/new.go", got)
	}
}

// TestCountedRoundBothOrNeither: a counted round whose NEW sample failed
// writes OLD's sample into neither file and records nothing; a round of
// two samples writes one into each file.
func TestCountedRoundBothOrNeither(t *testing.T) {
	st := &compared{b: engine.Benchmark{Pkg: "example.com/m", Name: "BenchmarkX"}, n: 10,
		vals: map[string]*[2][]float64{}, cens: map[string]*[2][]int{}, missing: map[string][]int{}}
	var old, new strings.Builder
	outs := [2]io.Writer{&old, &new}
	names := [2]string{"OLD", "NEW"}
	smp := [2]instr.Sample{{PerOp: 1000, N: 10, Long: 20000}, {PerOp: 1100, N: 10, Long: 22000}}
	if err := st.recordCounts(names, smp, [2]error{nil, errors.New("valgrind exited with status 1")}, outs); err != nil {
		t.Fatal(err)
	}
	if old.Len() != 0 || new.Len() != 0 || st.rounds != 0 || st.failed != "NEW: valgrind exited with status 1" {
		t.Fatalf("a round NEW failed: old.txt %q, new.txt %q, %d rounds, failed %q; want nothing written or recorded, failed on NEW", old.String(), new.String(), st.rounds, st.failed)
	}
	st.failed = ""
	if err := st.recordCounts(names, smp, [2]error{}, outs); err != nil {
		t.Fatal(err)
	}
	var want [2]strings.Builder
	for side := range want {
		instr.WriteResult(&want[side], "BenchmarkX", smp[side])
	}
	if old.String() != want[0].String() || new.String() != want[1].String() || st.rounds != 1 {
		t.Errorf("a round of two samples: old.txt %q, new.txt %q, %d rounds; want %q, %q, 1 round", old.String(), new.String(), st.rounds, want[0].String(), want[1].String())
	}
}
