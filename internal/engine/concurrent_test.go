package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/score"
)

const concurrentTestFile = `package p

import "testing"

func BenchmarkSerial(b *testing.B) {
	for range b.N {
		work()
	}
}

func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			work()
		}
	})
}

func BenchmarkShards(b *testing.B) {
	for _, n := range []int{1, 8} {
		b.Run("", func(b *testing.B) { readParallel(b, n) })
	}
}

func readParallel(b *testing.B, n int) { viaHelper(b) }

func viaHelper(b *testing.B) { b.RunParallel(func(pb *testing.PB) {}) }

func BenchmarkGoroutines(b *testing.B) {
	done := make(chan bool)
	go func() { work(); done <- true }()
	<-done
}

func BenchmarkRecursive(b *testing.B) { rec(b) }

func rec(b *testing.B) { rec(b) }

func BenchmarkLatency(b *testing.B) {
	for range b.N {
		work()
	}
	report(b)
}

func BenchmarkLatency2(b *testing.B) { report(b) }

func report(b *testing.B) { b.ReportMetric(1, "p99-ns/op") }

func work() {}
`

func TestConcurrentBenchmarks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	got := concurrentBenchmarks(dir)
	want := map[string]bool{"BenchmarkParallel": true, "BenchmarkShards": true, "BenchmarkGoroutines": true}
	if len(got) != len(want) {
		t.Errorf("concurrentBenchmarks = %v, want %v", got, want)
	}
	for name := range want {
		if !got[name] {
			t.Errorf("concurrentBenchmarks misses %s (got %v)", name, got)
		}
	}

	pkgs, rule := map[string]*mutate.Package{"example.com/p": {Dir: dir}}, score.Rule{MinEffect: 1.05}
	serial := []Benchmark{{Pkg: "example.com/p", Name: "BenchmarkSerial"}}
	// The serial benchmark shows no cost: its interval lies below 1.05.
	means := []score.TestResult{{Metric: "sec/op", Ratio: 1, RatioLo: 0.98, RatioHi: 1.02}, {Metric: "B/op"}}
	// It shows a cost (+8 %), or does not rule one out: no contention hint.
	costly := []score.TestResult{{Metric: "sec/op", Ratio: 1.08, RatioLo: 1.06, RatioHi: 1.1}, {Metric: "B/op"}}
	wide := []score.TestResult{{Metric: "sec/op", Ratio: 1.02, RatioLo: 0.5, RatioHi: 1.76}, {Metric: "B/op"}}
	for _, tc := range []struct {
		op      *mutate.Operator
		benches []Benchmark
		tests   []score.TestResult
		want    string
	}{
		{operators.RLockToLock, serial, means, "no concurrent benchmark reaches this critical section (a b.RunParallel benchmark of it would contend for it)"},
		{operators.RLockToLock, serial, costly, ""},
		// The rule's bound of the per-round ratios speaks first: +8 % not
		// ruled out although the bootstrap interval is narrow.
		{operators.RLockToLock, serial, []score.TestResult{{Metric: "sec/op", Ratio: 1, RatioLo: 0.98, RatioHi: 1.02, Upper: 1.08}}, ""},
		{operators.RLockToLock, serial, []score.TestResult{{Metric: "sec/op", Ratio: 1, RatioLo: 0.98, RatioHi: 1.07, Upper: 1.04}}, "no concurrent benchmark reaches this critical section (a b.RunParallel benchmark of it would contend for it)"},
		{operators.LockContention, serial, wide, ""},
		{operators.LockContention, serial, []score.TestResult{{Metric: "sec/op"}}, ""}, // no interval: nothing shown
		{operators.RLockToLock, append(serial, Benchmark{Pkg: "example.com/p", Name: "BenchmarkShards/8"}), means, ""},
		{operators.CriticalSpin, []Benchmark{{Pkg: "example.com/p", Name: "BenchmarkParallel", CPU: 1}}, means, "no concurrent benchmark reaches this critical section (a b.RunParallel benchmark of it would contend for it)"},
		{operators.CriticalSpin, []Benchmark{{Pkg: "example.com/p", Name: "BenchmarkParallel", CPU: 2}}, means, ""},
		{operators.TailSpike, serial, means, "the benchmarks report only means: a b.ReportMetric of a latency percentile (e.g. p99-ns/op, listed in metrics:) from a benchmark that runs the site at least 1000 times per process would show the spike"},
		{operators.TailSpike, serial, append(means, score.TestResult{Metric: "p99-sec/op"}), ""},
		{operators.TailSpike, append(serial, Benchmark{Pkg: "example.com/p", Name: "BenchmarkLatency", CPU: 2}, Benchmark{Pkg: "example.com/p", Name: "BenchmarkLatency", CPU: 4}), means,
			"BenchmarkLatency reports a metric of its own (b.ReportMetric) that the decision left out: a metric is tested only when listed in metrics: in perfmut.yaml"},
		{operators.TailSpike, []Benchmark{{Pkg: "example.com/p", Name: "BenchmarkLatency2"}, {Pkg: "example.com/p", Name: "BenchmarkLatency"}}, means,
			"BenchmarkLatency2, BenchmarkLatency report metrics of their own (b.ReportMetric) that the decision left out: a metric is tested only when listed in metrics: in perfmut.yaml"},
		{operators.TailSpike, []Benchmark{{Pkg: "example.com/p", Name: "BenchmarkLatency"}}, append(means, score.TestResult{Metric: "p99-sec/op"}), ""},
		{operators.SpinLoop, serial, means, ""},
	} {
		if got := survivorHint(pkgs, rule, tc.op, map[string]any{"every": 1000}, tc.benches, tc.tests); got != tc.want {
			t.Errorf("survivorHint(%s, %v) = %q, want %q", tc.op.Name, tc.benches, got, tc.want)
		}
	}
}

// TestBenchCostsConcurrent: a benchmark is concurrent in benchCosts when
// its source runs code from other goroutines, or when it runs at -cpu > 1
// (as countState.concurrent says), whatever its source.
func TestBenchCostsConcurrent(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	e := New(Config{Packages: []*mutate.Package{{ImportPath: "example.com/p", Dir: dir}}}, "", nil)
	costs := e.benchCosts(nil, nil, DefaultMetric)
	for _, tc := range []struct {
		b    Benchmark
		want bool
	}{
		{Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial"}, false},
		{Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial", CPU: 1}, false},
		{Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial", CPU: 4}, true},
		{Benchmark{Pkg: "example.com/p", Name: "BenchmarkParallel", CPU: 1}, true},
	} {
		if got := costs.concurrent(tc.b); got != tc.want {
			t.Errorf("benchCosts.concurrent(%s at -cpu %d) = %v, want %v", tc.b.Name, tc.b.CPU, got, tc.want)
		}
	}
}

// TestSpikePeriod: the tail hint says how often the spike sleeps, from
// a fresh mutant's parameters or ones read back from report.json.
func TestSpikePeriod(t *testing.T) {
	for _, tc := range []struct {
		params map[string]any
		want   string
	}{
		{map[string]any{"every": 1000}, "1000 times"},
		{map[string]any{"every": float64(50)}, "50 times"},
		{nil, "as many times as the spike's period (tail-spike.every)"},
	} {
		if got := spikePeriod(tc.params); got != tc.want {
			t.Errorf("spikePeriod(%v) = %q, want %q", tc.params, got, tc.want)
		}
	}
}
