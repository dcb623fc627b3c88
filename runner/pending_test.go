package runner

import (
	"slices"
	"testing"

	"github.com/perfmut/perfmut/score"
)

// TestPendingLateMetric: a custom metric the iteration-count run did not
// report, first reported by a later baseline sample of the benchmark (an
// earlier mutant's), is pending in DecideAhead's family for the next
// mutant measured on it, before that benchmark's first round. (Pending
// metrics came from the iteration-count run alone.)
func TestPendingLateMetric(t *testing.T) {
	b := benchmark{Pkg: "example.com/demo/kv", Name: "BenchmarkGetParallel"}
	first := []string{"sec/op", "B/op", "allocs/op"}
	r := &run{benchIters: map[string]benchIters{itersKey("opt", b): {N: 100, Units: first}}}
	newMS := func() *measurement {
		return &measurement{r: r, j: &measureJob{level: "opt"},
			metric: func(u string) bool { return defaultMetric(u) || u == "p99-sec/op" },
			names:  map[benchmark]string{b: b.Name},
			its:    map[benchmark]benchIters{b: r.benchIters[itersKey("opt", b)]},
			series: map[benchmark]*series{b: {samples: map[string]*score.Sample{}, censored: map[string][]int{}}},
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
	if got := metrics(newMS().pending([]benchmark{b})); !slices.Equal(got, first) {
		t.Errorf("before any sample: pending %v, want %v", got, first)
	}
	ms := newMS()
	// A baseline sample of an earlier mutant reports the percentile, and
	// a unit the campaign does not test.
	r.learnUnits("opt", b, []string{"sec/op", "B/op", "allocs/op", "p99-sec/op", "hits/op"})
	want := []string{"sec/op", "B/op", "allocs/op", "p99-sec/op"}
	if got := metrics(ms.pending([]benchmark{b})); !slices.Equal(got, want) {
		t.Errorf("after the metric first showed: pending %v, want %v", got, want)
	}
	if got := metrics(newMS().pending([]benchmark{b})); !slices.Equal(got, want) {
		t.Errorf("next mutant: pending %v, want %v", got, want)
	}
	// A benchmark iters never timed (no entry) learns nothing.
	other := benchmark{Pkg: "example.com/demo/kv", Name: "BenchmarkSet"}
	r.learnUnits("opt", other, want)
	if _, ok := r.benchIters[itersKey("opt", other)]; ok {
		t.Error("learnUnits created an entry for a benchmark iters never timed")
	}
}

// TestUnionUnits: each unit once, in report order.
func TestUnionUnits(t *testing.T) {
	got := unionUnits([]string{"sec/op", "p99-sec/op"}, []string{"allocs/op", "sec/op", "B/op"})
	if want := []string{"sec/op", "B/op", "allocs/op", "p99-sec/op"}; !slices.Equal(got, want) {
		t.Errorf("unionUnits = %v, want %v", got, want)
	}
}
