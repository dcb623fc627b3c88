package engine

import (
	"math"
	"testing"

	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/score"
)

func TestBenchDeath(t *testing.T) {
	for _, tc := range []struct {
		name, out   string
		exit        int
		bench, msg  string
		status      score.Status
		reasonStart string
	}{
		{"panic after the name", "goos: linux\nBenchmarkFirst-2   \t     100\t      1234 ns/op\nBenchmarkPanics-2 \tpanic: broken on purpose\n\ngoroutine 7 [running]:\nmain.f()\n", 2,
			"BenchmarkPanics", "panic: broken on purpose", score.Crash, "panic: broken on purpose"},
		{"panic at line start", "BenchmarkX/sub-2 \t\npanic: runtime error: index out of range [3] with length 3\n", 2,
			"BenchmarkX/sub", "panic: runtime error: index out of range [3] with length 3", score.Crash, "panic: runtime error"},
		{"fatal error", "BenchmarkY \tfatal error: all goroutines are asleep - deadlock!\n", 2,
			"BenchmarkY", "fatal error: all goroutines are asleep - deadlock!", score.Crash, "fatal error: all goroutines"},
		{"-test.v, no name on the panic", "BenchmarkDouble\nBenchmarkDouble-2 \t 1\t 651.0 ns/op\nBenchmarkPanics\npanic: broken on purpose\n\ngoroutine 7 [running]:\n", 2,
			"BenchmarkPanics", "panic: broken on purpose", score.Crash, "panic: broken on purpose"},
		// The panicking benchmark let the next one start before the
		// runtime printed the panic (go test -v's output, as printed).
		{"-test.v, the next benchmark started", "BenchmarkDouble\nBenchmarkDouble-2   \t       1\t       851.0 ns/op\nBenchmarkPanics\nBenchmarkPanics-2   \t       1\nBenchmarkNext\n" +
			"panic: broken on purpose\n\ngoroutine 18 [running]:\nexample.com/bd.lookup(...)\n\t/m/bd.go:9\nexample.com/bd.BenchmarkPanics(0x164d5887c608?)\n\t/m/bd_test.go:26 +0x25\n" +
			"testing.(*B).runN(0x164d5887c608, 0x1)\n\t/go/src/testing/benchmark.go:219 +0x190\ntesting.(*B).run1.func1()\n\t/go/src/testing/benchmark.go:245 +0x48\ncreated by testing.(*B).run1 in goroutine 1\n\t/go/src/testing/benchmark.go:238 +0x90\n", 2,
			"BenchmarkPanics", "panic: broken on purpose", score.Crash, "panic: broken on purpose"},
		{"-test.v, the next sub-benchmark started", "BenchmarkSubs\nBenchmarkSubs/a\nBenchmarkSubs/a-2 \t       1\t      1082 ns/op\nBenchmarkSubs/b\nBenchmarkSubs/b-2 \t       1\nBenchmarkSubs/c\n" +
			"panic: broken on purpose\n\ngoroutine 8 [running]:\nexample.com/bd.BenchmarkSubs.func2(0x114376670908?)\n\t/m/bd_test.go:37 +0x25\ntesting.(*B).runN(0x114376670908, 0x1)\n\t/go/src/testing/benchmark.go:219 +0x190\n", 2,
			"BenchmarkSubs/b", "panic: broken on purpose", score.Crash, "panic: broken on purpose"},
		{"a goroutine the benchmark started", "BenchmarkGo\nBenchmarkLater\npanic: boom\n\ngoroutine 9 [running]:\nexample.com/m_test.BenchmarkGo.func1()\n\t/m/m_test.go:12 +0x25\ncreated by example.com/m_test.BenchmarkGo in goroutine 8\n\t/m/m_test.go:11 +0x30\n", 2,
			"BenchmarkGo", "panic: boom", score.Crash, "panic: boom"},
		{"at its second -cpu", "BenchmarkX\nBenchmarkX   \t       1\t       851.0 ns/op\npanic: boom\n\ngoroutine 9 [running]:\ngopkg.in/m.v3.BenchmarkX(0xc0001)\n\t/m/m_test.go:12 +0x25\n", 2,
			"BenchmarkX", "panic: boom", score.Crash, "panic: boom"},
		{"no benchmark in the trace", "BenchmarkA\nBenchmarkA-2 \t 1\t 5 ns/op\nBenchmarkB\npanic: boom\n\ngoroutine 9 [running]:\nexample.com/m.worker()\n\t/m/m.go:12 +0x25\ncreated by example.com/m.Start in goroutine 8\n\t/m/m.go:11 +0x30\ntesting.Benchmark(0x1)\n", 2,
			"BenchmarkB", "panic: boom", score.Crash, "panic: boom"},
		{"b.Fatal", "BenchmarkZ-2 \t--- FAIL: BenchmarkZ-2\n    x_test.go:9: wrong\nFAIL\n", 1,
			"", "", score.FNE, "failed: "},
		// os.Exit(0) under -test.paniconexit0, as observed: the result
		// (one iteration, no time) and PASS printed, status 0, the panic
		// never printed.
		{"exit 0 before the panic", "BenchmarkExit\nBenchmarkExit-2   \t       1\t         0 B/op\t       0 allocs/op\nPASS\n", 0,
			"BenchmarkExit", "", score.Crash, exitZeroReason},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, m := benchDeath([]byte(tc.out))
			if b != tc.bench || m != tc.msg {
				t.Errorf("benchDeath = %q, %q; want %q, %q", b, m, tc.bench, tc.msg)
			}
			o := BenchFailure(proc.Result{Output: []byte(tc.out), ExitCode: tc.exit})
			if o.Status != tc.status || len(o.Reason) < len(tc.reasonStart) || o.Reason[:len(tc.reasonStart)] != tc.reasonStart {
				t.Errorf("benchFailure = %s (%s), want %s (%s...)", o.Status, o.Reason, tc.status, tc.reasonStart)
			}
		})
	}
}

// TestTimelessResult: the result line of a benchmark without ns/op is
// found, not a line that starts a benchmark, reports its death or ends it.
func TestTimelessResult(t *testing.T) {
	for out, want := range map[string]string{
		"BenchmarkExit\nBenchmarkExit-2   \t       1\t         0 B/op\t       0 allocs/op\nPASS\n": "BenchmarkExit",
		"BenchmarkA-2 \t 100\t 12 ns/op\t 0 B/op\nBenchmarkB-2 \t 1\nPASS\n":                       "BenchmarkB",
		"BenchmarkA-2 \t 100\t 12 ns/op\t 0 B/op\t 0 allocs/op\nPASS\n":                            "",
		"BenchmarkA\nBenchmarkA-2 \tpanic: boom\n":                                                 "",
		"BenchmarkZ-2 \t--- FAIL: BenchmarkZ-2\nFAIL\n":                                            "",
	} {
		if got := timelessResult([]byte(out)); got != want {
			t.Errorf("timelessResult(%q) = %q, want %q", out, got, want)
		}
	}
}

// TestBenchValues: a result without a time per operation gives no values
// (the run failed), one with a time gives them all.
func TestBenchValues(t *testing.T) {
	b := Benchmark{Pkg: "p", Name: "BenchmarkExit"}
	if v := benchValues([]byte("BenchmarkExit-2   \t       1\t         0 B/op\t       0 allocs/op\nPASS\n"), "out", b); v != nil {
		t.Errorf("a result without ns/op: values %v, want none", v)
	}
	v := benchValues([]byte("BenchmarkExit-2   \t       10\t   150 ns/op\t         0 B/op\t       0 allocs/op\nPASS\n"), "out", b)
	if len(v) != 3 || math.Abs(v["sec/op"]-150e-9) > 1e-18 || v["B/op"] != 0 {
		t.Errorf("a timed result: values %v, want sec/op 1.5e-07, B/op 0, allocs/op 0", v)
	}
}
