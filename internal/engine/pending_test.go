package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// TestPendingLateMetric: a custom metric the iteration-count run did not
// report, first reported by a later baseline sample of the benchmark (an
// earlier mutant's), is pending in DecideAhead's family for the next
// mutant measured on it, before that benchmark's first round. (Pending
// metrics came from the iteration-count run alone.)
func TestPendingLateMetric(t *testing.T) {
	b := Benchmark{Pkg: "example.com/demo/kv", Name: "BenchmarkGetParallel"}
	first := []string{"sec/op", "B/op", "allocs/op"}
	e := &Engine{itc: itersCache{itersKey("opt", b): {N: 100, Units: first}}}
	newMS := func() *measurement {
		return &measurement{e: e, j: &Job{Level: "opt"},
			metric: func(u string) bool { return DefaultMetric(u) || u == "p99-sec/op" },
			names:  map[Benchmark]string{b: b.Name},
			its:    map[Benchmark]BenchIters{b: e.itc[itersKey("opt", b)]},
			series: map[Benchmark]*series{b: {samples: map[string]*score.Sample{}, censored: map[string][]int{}}},
		}
	}
	metrics := func(ss []score.Sample) []string {
		var out []string
		for _, s := range ss {
			if len(s.Baseline) > 0 {
				t.Errorf("pending %s has values before its first round", s.Metric)
			}
			out = append(out, s.Metric)
		}
		return out
	}
	if got := metrics(newMS().pending([]Benchmark{b})); !slices.Equal(got, first) {
		t.Errorf("before any sample: pending %v, want %v", got, first)
	}
	ms := newMS()
	// A baseline sample of an earlier mutant reports the percentile, and
	// a unit the campaign does not test.
	e.itc.learnUnits("opt", b, []string{"sec/op", "B/op", "allocs/op", "p99-sec/op", "hits/op"})
	want := []string{"sec/op", "B/op", "allocs/op", "p99-sec/op"}
	if got := metrics(ms.pending([]Benchmark{b})); !slices.Equal(got, want) {
		t.Errorf("after the metric first showed: pending %v, want %v", got, want)
	}
	if got := metrics(newMS().pending([]Benchmark{b})); !slices.Equal(got, want) {
		t.Errorf("next mutant: pending %v, want %v", got, want)
	}
	// A benchmark iters never timed (no entry) learns nothing.
	other := Benchmark{Pkg: "example.com/demo/kv", Name: "BenchmarkSet"}
	e.itc.learnUnits("opt", other, want)
	if _, ok := e.itc[itersKey("opt", other)]; ok {
		t.Error("learnUnits created an entry for a benchmark iters never timed")
	}
}

// TestPendingReportsMetric: a benchmark whose source calls b.ReportMetric
// may report every tested custom unit: each is pending in DecideAhead's
// family before its first sample, though the iteration-count run did not
// report it (it reports it only at some b.N, or in some runs); one whose
// source does not call it adds none.
func TestPendingReportsMetric(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	const pkg = "example.com/p"
	first := []string{"sec/op", "B/op", "allocs/op"}
	latency, serial := Benchmark{Pkg: pkg, Name: "BenchmarkLatency"}, Benchmark{Pkg: pkg, Name: "BenchmarkSerial"}
	unknown := Benchmark{Pkg: "example.com/elsewhere", Name: "BenchmarkX"}
	e := &Engine{cfg: Config{Measurement: Measurement{CustomUnits: []string{"p99-sec/op"}}}, pkgs: map[string]*mutate.Package{pkg: {Dir: dir}}, itc: itersCache{}}
	ms := &measurement{e: e, j: &Job{Level: "opt"},
		its: map[Benchmark]BenchIters{latency: {Units: first}, serial: {Units: first}, unknown: {Units: first}}}
	withP99 := []string{"sec/op", "B/op", "allocs/op", "p99-sec/op"}
	for b, want := range map[Benchmark][]string{latency: withP99, serial: first, unknown: withP99} {
		if got := ms.mayReport(b); !slices.Equal(got, want) {
			t.Errorf("%s: may report %v, want %v", b.Name, got, want)
		}
	}
}

// TestUnionUnits: each unit once, in report order.
func TestUnionUnits(t *testing.T) {
	got := unionUnits([]string{"sec/op", "p99-sec/op"}, []string{"allocs/op", "sec/op", "B/op"})
	if want := []string{"sec/op", "B/op", "allocs/op", "p99-sec/op"}; !slices.Equal(got, want) {
		t.Errorf("unionUnits = %v, want %v", got, want)
	}
}
