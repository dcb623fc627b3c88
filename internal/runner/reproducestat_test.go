package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
	"golang.org/x/perf/benchmath"
)

// statRow is a reproRow with the given medians and p-value.
func statRow(bench, unit string, base, mut, p float64) reproRow {
	return reproRow{Benchmark: bench, Unit: unit,
		Sides: [2]benchmath.Summary{{Center: base}, {Center: mut}},
		Cmp:   benchmath.Comparison{P: p, N1: 20, N2: 20, Alpha: 0.05}}
}

func TestAgreement(t *testing.T) {
	slow := statRow("Find-2", "sec/op", 100, 150, 0.001)
	flat := statRow("Find-2", "sec/op", 100, 100.5, 0.32)
	fast := statRow("Find-2", "sec/op", 100, 90, 0.001)
	allocs := statRow("Find-2", "B/op", 0, 16, 0.000)
	cases := []struct {
		status score.Status
		rows   []reproRow
		want   string
	}{
		{score.Killed, []reproRow{slow}, "agree: killed at opt, and benchstat finds it slower at p <= 0.05: Find-2 sec/op +50.00% p=0.001"},
		{score.Killed, []reproRow{flat}, "disagree: killed at opt, but benchstat finds no slowdown at p <= 0.05 (closest: Find-2 sec/op +0.50% p=0.320)"},
		{score.Killed, []reproRow{fast}, "disagree: killed at opt, but benchstat finds no slowdown at p <= 0.05 (closest: Find-2 sec/op -10.00% p=0.001)"},
		{score.Killed, []reproRow{flat, allocs}, "agree: killed at opt, and benchstat finds it slower at p <= 0.05: Find-2 B/op +Inf% p=0.000"},
		{score.Survived, []reproRow{flat}, "agree: survived at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Find-2 sec/op +0.50% p=0.320)"},
		{score.Survived, []reproRow{flat, slow}, "disagree: survived at opt, but benchstat finds it slower at p <= 0.05: Find-2 sec/op +50.00% p=0.001"},
		{score.Undecided, []reproRow{slow}, "undecided at opt: no kill or survival to check; benchstat finds it slower at p <= 0.05: Find-2 sec/op +50.00% p=0.001"},
		{score.Survived, []reproRow{statRow("Find-2", "B/op", 1, 0, 0.2), flat}, "agree: survived at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Find-2 sec/op +0.50% p=0.320)"},
		{score.Killed, nil, "disagree: killed at opt, but benchstat has no benchmark to compare"},
	}
	for i, c := range cases {
		if got := agreement(c.status, "opt", c.rows); got != c.want {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, c.want)
		}
	}
}

// TestJudgedRows: sec/op always counts; B/op and allocs/op only when the
// kill rests on them.
func TestJudgedRows(t *testing.T) {
	rows := []reproRow{statRow("F", "sec/op", 1, 1, 0.5), statRow("F", "B/op", 100, 101, 0.04), statRow("F", "allocs/op", 1, 2, 0.001)}
	lr := &results.LevelResult{Status: score.Killed, Benchmarks: []score.TestResult{
		{Benchmark: "BenchmarkF", Metric: "sec/op"}, {Benchmark: "BenchmarkF", Metric: "allocs/op", Reject: true}}}
	var units []string
	for _, r := range judgedRows(rows, killMetrics(lr)) {
		units = append(units, r.Unit)
	}
	if strings.Join(units, " ") != "sec/op allocs/op" {
		t.Errorf("judged units %v, want sec/op allocs/op", units)
	}
	if got := agreement(score.Survived, "opt", judgedRows(rows, killMetrics(&results.LevelResult{}))); !strings.HasPrefix(got, "agree: survived") {
		t.Errorf("a survivor with a B/op blip: %s", got)
	}
}

// TestReproRowsCustomMetric: a custom metric both sides report gets its
// row after the standard units, and is judged for a kill and a survivor
// alike (a tail-latency kill rests on it; its reproduction read
// "disagree" when only sec/op, B/op and allocs/op were compared).
func TestReproRowsCustomMetric(t *testing.T) {
	side := func(p99 float64) map[string]map[string][]float64 {
		m := map[string][]float64{"sec/op": {}, "p99.95-sec/op": {}, "B/op": {}}
		for i := range 20 {
			m["sec/op"] = append(m["sec/op"], 100+float64(i%3))
			m["p99.95-sec/op"] = append(m["p99.95-sec/op"], p99+float64(i))
			m["B/op"] = append(m["B/op"], 16)
		}
		return map[string]map[string][]float64{"Get-2": m}
	}
	rows := reproRows([2]map[string]map[string][]float64{side(1000), side(25000)})
	var units []string
	for _, r := range rows {
		units = append(units, r.Unit)
	}
	if got := strings.Join(units, " "); got != "sec/op B/op p99.95-sec/op" {
		t.Fatalf("units %q, want sec/op B/op p99.95-sec/op", got)
	}
	lr := &results.LevelResult{Status: score.Killed, Benchmarks: []score.TestResult{
		{Benchmark: "BenchmarkGet", Metric: "p99.95-ns/op", Reject: true}}}
	got := agreement(score.Killed, "opt", judgedRows(rows, killMetrics(lr)))
	if !strings.HasPrefix(got, "agree: killed at opt, and benchstat finds it slower at p <= 0.05: Get-2 p99.95-sec/op") {
		t.Errorf("custom-metric kill: %s", got)
	}
	if got := agreement(score.Survived, "opt", judgedRows(rows, nil)); !strings.HasPrefix(got, "disagree: survived") {
		t.Errorf("survivor slower on its custom metric: %s", got)
	}
}

// TestClosingLineCounted: a verdict decided on instruction counts is not
// judged by a wall-time reproduction (it read "disagree" for a kill at
// x1.006 on instructions/op); a mixed one says which part is checked.
func TestClosingLineCounted(t *testing.T) {
	flat := []reproRow{statRow("Find-2", "sec/op", 100, 100.5, 0.32)}
	cases := []struct {
		metric, want string
	}{
		{"instructions/op", "killed at opt on instructions/op counted under valgrind: this reproduction measures wall time, which does not check that verdict (perfmut run -measure instructions -mutants cf8e33f056a9 counts again)"},
		{"", "disagree: killed at opt, but benchstat finds no slowdown at p <= 0.05 (closest: Find-2 sec/op +0.50% p=0.320)"},
		{"instructions/op and sec/op", "disagree: killed at opt, but benchstat finds no slowdown at p <= 0.05 (closest: Find-2 sec/op +0.50% p=0.320) (wall time only: part of the verdict rests on instructions/op counted under valgrind)"},
	}
	for _, c := range cases {
		lr := &results.LevelResult{Status: score.Killed, Metric: c.metric}
		if got := closingLine("cf8e33f056a9", lr, "opt", flat); got != c.want {
			t.Errorf("metric %q:\n got %s\nwant %s", c.metric, got, c.want)
		}
	}
}

func TestSplitDisplay(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "a", "a_test.go"), []byte("package a\n\nfunc BenchmarkA(b *testing.B) {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b", "b_test.go"), []byte("package b\n\nfunc BenchmarkB(b *testing.B) {}\nfunc BenchmarkA(b *testing.B) {}\n"), 0o644)
	pkgs := []*mutate.Package{{ImportPath: "m/a", Dir: filepath.Join(dir, "a")}, {ImportPath: "m/b", Dir: filepath.Join(dir, "b")}}
	cases := []struct {
		display string
		cpus    []int
		mutated string
		want    ReproBenchmark
		err     string
	}{
		{"BenchmarkA/n=10", nil, "m/a", ReproBenchmark{Package: "m/a", Name: "BenchmarkA/n=10"}, ""},
		{"BenchmarkA", nil, "m/b", ReproBenchmark{Package: "m/b", Name: "BenchmarkA"}, ""},
		{"BenchmarkB", nil, "m/a", ReproBenchmark{Package: "m/b", Name: "BenchmarkB"}, ""},
		{"m/b.BenchmarkA-4", []int{1, 4}, "m/a", ReproBenchmark{Package: "m/b", Name: "BenchmarkA", CPU: 4}, ""},
		{"BenchmarkA", []int{1, 4}, "m/a", ReproBenchmark{Package: "m/a", Name: "BenchmarkA", CPU: 1}, ""},
		{"BenchmarkA/x-4", nil, "m/a", ReproBenchmark{Package: "m/a", Name: "BenchmarkA/x-4"}, ""},
		{"BenchmarkC", nil, "m/a", ReproBenchmark{}, "benchmark BenchmarkC: no test file of the module declares BenchmarkC"},
	}
	for _, c := range cases {
		got, err := splitDisplay(c.display, c.cpus, c.mutated, pkgs)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.display, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %+v, %v; want %+v", c.display, got, err, c.want)
		}
	}
}
