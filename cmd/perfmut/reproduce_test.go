package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"

	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// row is a reproRow with the given medians and p-value.
func row(bench, unit string, base, mut, p float64) reproRow {
	return reproRow{Benchmark: bench, Unit: unit,
		Sides: [2]benchmath.Summary{{Center: base}, {Center: mut}},
		Cmp:   benchmath.Comparison{P: p, N1: 20, N2: 20, Alpha: 0.05}}
}

func TestAgreement(t *testing.T) {
	slow := row("Find-2", "sec/op", 100, 150, 0.001)
	flat := row("Find-2", "sec/op", 100, 100.5, 0.32)
	fast := row("Find-2", "sec/op", 100, 90, 0.001)
	allocs := row("Find-2", "B/op", 0, 16, 0.000)
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
		{score.Survived, []reproRow{row("Find-2", "B/op", 1, 0, 0.2), flat}, "agree: survived at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Find-2 sec/op +0.50% p=0.320)"},
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
	rows := []reproRow{row("F", "sec/op", 1, 1, 0.5), row("F", "B/op", 100, 101, 0.04), row("F", "allocs/op", 1, 2, 0.001)}
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
	flat := []reproRow{row("Find-2", "sec/op", 100, 100.5, 0.32)}
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
		want    runner.ReproBenchmark
		err     string
	}{
		{"BenchmarkA/n=10", nil, "m/a", runner.ReproBenchmark{Package: "m/a", Name: "BenchmarkA/n=10"}, ""},
		{"BenchmarkA", nil, "m/b", runner.ReproBenchmark{Package: "m/b", Name: "BenchmarkA"}, ""},
		{"BenchmarkB", nil, "m/a", runner.ReproBenchmark{Package: "m/b", Name: "BenchmarkB"}, ""},
		{"m/b.BenchmarkA-4", []int{1, 4}, "m/a", runner.ReproBenchmark{Package: "m/b", Name: "BenchmarkA", CPU: 4}, ""},
		{"BenchmarkA", []int{1, 4}, "m/a", runner.ReproBenchmark{Package: "m/a", Name: "BenchmarkA", CPU: 1}, ""},
		{"BenchmarkA/x-4", nil, "m/a", runner.ReproBenchmark{Package: "m/a", Name: "BenchmarkA/x-4"}, ""},
		{"BenchmarkC", nil, "m/a", runner.ReproBenchmark{}, "benchmark BenchmarkC: no test file of the module declares BenchmarkC"},
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

// TestReproduceCampaign runs a campaign on two mutants of testdata/repro,
// one that makes BenchmarkChecksum about twenty times slower (lock and
// unlock a mutex per byte) and one that adds a lock to a loop of one
// element per call, then reproduces each: benchstat finds the first
// slower by far, in agreement with its kill; for the second, whose effect
// is next to nothing, what benchstat finds is chance and the load (6
// samples a side: p <= 0.05 in about one comparison of twenty without any
// effect), so only the closing line's logic is checked: it says "slower"
// exactly when the row it quotes is slower at p <= 0.05, and agrees or
// disagrees with the campaign's verdict accordingly. The module is not
// changed.
func TestReproduceCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a campaign")
	}
	mod := runnerModule(t, "repro")
	before := hashTree(t, mod)
	out := filepath.Join(t.TempDir(), "out")
	const slow, none = "0780da4326d9", "56873e2d3bd3"
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), &stdout, &stderr, []string{"run", "-C", mod, "-out", out, "-opt", "on",
		"-mutants", slow + "," + none, "-max-samples", "10"}); code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, stderr.String())
	}
	for _, id := range []string{slow, none} {
		stdout.Reset()
		stderr.Reset()
		if code := run(context.Background(), &stdout, &stderr, []string{"reproduce", "-C", mod, "-out", out, "-count", "6", id[:6]}); code != exitOK {
			t.Fatalf("reproduce %s: exit %d\n%s", id, code, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		last := lines[len(lines)-1]
		delta := regexp.MustCompile(`Checksum-?\d* sec/op ([-+][0-9.]+)% p=`).FindStringSubmatch(last)
		if delta == nil {
			t.Fatalf("reproduce %s: last line %q names no sec/op change\n%s", id, last, stdout.String())
		}
		d, _ := strconv.ParseFloat(delta[1], 64)
		switch id {
		case slow:
			if !strings.HasPrefix(last, "agree: killed at opt, and benchstat finds it slower at p <= 0.05: Checksum") || d < 300 {
				t.Errorf("reproduce %s: %s", id, last)
			}
		case none:
			if !consistentAgreement(last, d) {
				t.Errorf("reproduce %s: closing line %q does not follow from its row", id, last)
			}
		}
		for _, f := range []string{runner.ReproBaseFile, runner.ReproMutFile} {
			data, err := os.ReadFile(filepath.Join(out, "reproduce", id, "opt", f))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(data), "\nBenchmarkChecksum"); n != 6 {
				t.Errorf("reproduce %s: %s holds %d samples, want 6", id, f, n)
			}
		}
	}
	if hashTree(t, mod) != before {
		t.Error("the module changed")
	}
}

// consistentAgreement reports whether reproduce's closing line follows
// from the benchstat row it quotes (whose sec/op change is d percent): it
// finds a slowdown exactly when the row is slower at p <= 0.05, and agrees
// with a kill exactly when it does, with a survival exactly when it does
// not.
func consistentAgreement(line string, d float64) bool {
	m := regexp.MustCompile(`^(?:(agree|disagree): (killed|survived)|\S+) at opt[,:] .*benchstat finds (it slower|no slowdown) at p <= 0\.05.* p=([0-9.]+)\)?$`).FindStringSubmatch(line)
	if m == nil {
		return false
	}
	p, err := strconv.ParseFloat(m[4], 64)
	if err != nil {
		return false
	}
	slower := p <= 0.05 && d > 0
	if slower != (m[3] == "it slower") {
		return false
	}
	switch m[2] {
	case "killed":
		return (m[1] == "agree") == slower
	case "survived":
		return (m[1] == "agree") == !slower
	}
	return true
}

// TestConsistentAgreement: the check of TestReproduceCampaign's closing
// line accepts the lines agreement writes and refuses one whose words do
// not follow from its row.
func TestConsistentAgreement(t *testing.T) {
	for _, c := range []struct {
		line string
		d    float64
		want bool
	}{
		{"agree: killed at opt, and benchstat finds it slower at p <= 0.05: Checksum sec/op +1900.00% p=0.002", 1900, true},
		{"disagree: killed at opt, but benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op +3.10% p=0.394)", 3.1, true},
		{"agree: survived at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op -1.20% p=0.699)", -1.2, true},
		{"disagree: survived at opt, but benchstat finds it slower at p <= 0.05: Checksum sec/op +12.00% p=0.026", 12, true},
		{"undecided at opt: no kill or survival to check; benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op +0.50% p=0.818)", 0.5, true},
		{"undecided at opt: no kill or survival to check; benchstat finds it slower at p <= 0.05: Checksum sec/op +9.00% p=0.041", 9, true},
		{"agree: survived at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op +12.00% p=0.026)", 12, false},
		{"agree: killed at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op +3.10% p=0.394)", 3.1, false},
		{"disagree: survived at opt, but benchstat finds it slower at p <= 0.05: Checksum sec/op -2.00% p=0.026", -2, false},
		{"Checksum sec/op +1.00% p=0.5", 1, false},
	} {
		if got := consistentAgreement(c.line, c.d); got != c.want {
			t.Errorf("%q: %v, want %v", c.line, got, c.want)
		}
	}
}
