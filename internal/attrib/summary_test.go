package attrib

import (
	"testing"

	"github.com/perfmut/perfmut/results"
)

// TestSummary: the one line of a metric's attribution, as a pull request
// shows it.
func TestSummary(t *testing.T) {
	get := results.AttribFunc{Function: "example.com/m/cache.(*LRU).Get", Delta: 9.04, Changed: "cache/lru.go:46-52"}
	put := results.AttribFunc{Function: "example.com/m/cache.(*LRU).Put", Delta: -8, Calls: []string{"example.com/m/cache.(*LRU).evict"}}
	for _, tc := range []struct {
		m    results.AttribMetric
		want string
	}{
		{results.AttribMetric{Metric: "sec/op", Verdict: "slower", Ratio: 1.12, Unit: "ns/op", Delta: 11.2, Functions: []results.AttribFunc{get}},
			"BenchmarkGet sec/op +12%: 9 of the 11 extra ns/op in cache.(*LRU).Get, changed (cache/lru.go:46-52)"},
		{results.AttribMetric{Metric: "sec/op", Verdict: "faster", Ratio: 0.8, Unit: "ns/op", Delta: -10, Functions: []results.AttribFunc{put}},
			"BenchmarkGet sec/op -20%: 8 of the 10 fewer ns/op in cache.(*LRU).Put, which calls the changed cache.(*LRU).evict"},
		{results.AttribMetric{Metric: "sec/op", Verdict: "slower", Ratio: 3, Unit: "ns/op", Delta: 100, Functions: []results.AttribFunc{{Function: "example.com/m/text.isASCII", Delta: 90, CalledBy: []string{"example.com/m/text.Lower"}}}},
			"BenchmarkGet sec/op +200%: 90 of the 100 extra ns/op in text.isASCII, not changed, called by the changed text.Lower"},
		{results.AttribMetric{Metric: "B/op", Verdict: "slower", Ratio: 1.5, Unit: "B/op", Delta: 64, Functions: []results.AttribFunc{{Function: "example.com/m/cache.New", Delta: 0.512}}},
			"BenchmarkGet B/op +50%: 0.51 of the 64 extra B/op in cache.New, not changed"},
		{results.AttribMetric{Metric: "sec/op", Verdict: "slower", Ratio: 1.5, Unit: "ns/op", Delta: 64, Functions: []results.AttribFunc{{Function: "runtime.mcall", Delta: 30, Outside: true}}},
			"BenchmarkGet sec/op +50%: 30 of the 64 extra ns/op in runtime.mcall, outside the module's functions"},
		{results.AttribMetric{Metric: "sec/op", Verdict: "slower", Ratio: 2.9, Unit: "ns/op", Delta: 10225, Functions: []results.AttribFunc{{Function: "example.com/cmp/sum.Sum", Delta: 10701, Changed: "sum/sum.go:14"}}},
			"BenchmarkGet sec/op +190%: all of the 10225 extra ns/op in sum.Sum, changed (sum/sum.go:14)"},
		{results.AttribMetric{Metric: "sec/op", Verdict: "slower", Ratio: 1.06, Unit: "ns/op", Delta: -2},
			"BenchmarkGet sec/op +6%: the profiles do not show it (2 fewer ns/op in NEW's): the change is not on the CPU (sleeping, waiting for a lock, I/O) or within the profiles' noise"},
		{results.AttribMetric{Metric: "sec/op", Verdict: "undecided", Ratio: 1.03, Unit: "ns/op", Delta: 1234.5},
			"BenchmarkGet sec/op +3%: 1235 extra ns/op, no function's share moved with it"},
	} {
		if got := Summary("BenchmarkGet", tc.m); got != tc.want {
			t.Errorf("Summary:\n%s\nwant\n%s", got, tc.want)
		}
	}
}
