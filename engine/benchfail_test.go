package engine

import (
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
		{"b.Fatal", "BenchmarkZ-2 \t--- FAIL: BenchmarkZ-2\n    x_test.go:9: wrong\nFAIL\n", 1,
			"", "", score.FNE, "failed: "},
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
