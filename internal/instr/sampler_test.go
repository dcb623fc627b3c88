package instr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var fakeBench = Bench{Bin: "fake.test", Pattern: "^BenchmarkFake$"}

// TestSampleFake: the per-operation count is the difference of the counts
// at N+2 and 2 over N, whatever the count common to both runs.
func TestSampleFake(t *testing.T) {
	s := fakeSampler(t, "", 7)
	got, err := s.Sample(context.Background(), fakeBench, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got.PerOp != 7 || got.N != 50 || got.Short != 1014 || got.Long != 1364 {
		t.Errorf("Sample = %+v, want PerOp 7, N 50, Short 1014, Long 1364", got)
	}
	if want := "BenchmarkFake \t 52\t 1 ns/op\nPASS\n"; string(got.Output) != want {
		t.Errorf("Sample.Output = %q, want the run at N+2's, %q", got.Output, want)
	}
}

// TestSampleErrors: every way a counted run can fail is an error saying
// which.
func TestSampleErrors(t *testing.T) {
	for _, tc := range []struct{ mode, want string }{
		{"fail", "exit status 1: --- FAIL: BenchmarkFake"},
		{"sigill", "valgrind stopped it: vex amd64->IR: unhandled instruction bytes: 0xF 0x1 0xF9 0x48 ("},
		{"noresult", "no benchmark result (the pattern selects no benchmark, or it failed): PASS"},
		{"two", "2 benchmark results, want the pattern to select exactly one"},
		{"wrongn", "the benchmark ran 1 iterations, want 2"},
		{"nofile", "valgrind wrote no output file: BenchmarkFake"},
		{"flat", "counted 1000 instructions at 2 iterations and 1000 at 52: too few iterations"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			s := fakeSampler(t, tc.mode, 7)
			_, err := s.Sample(context.Background(), fakeBench, 50)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Sample error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := fakeSampler(t, "", 7).Sample(context.Background(), fakeBench, 1); err == nil ||
		err.Error() != "instruction sample of ^BenchmarkFake$: iteration count 1, want at least 2" {
		t.Errorf("Sample at 0 iterations: error %v", err)
	}
}

// TestCountStops: a run past its deadline, or whose context is cancelled,
// is killed and Count returns at once with an error saying so.
func TestCountStops(t *testing.T) {
	s := fakeSampler(t, "sleep", 7)
	s.Timeout = 200 * time.Millisecond
	start := time.Now()
	_, err := s.Count(context.Background(), fakeBench, 1)
	if err == nil || !strings.Contains(err.Error(), "timed out after 200ms") {
		t.Errorf("Count past its timeout: error %v, want timed out after 200ms", err)
	}
	s.Timeout = 0
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = s.Count(ctx, fakeBench, 1)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Count with a cancelled context: error %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopping two runs took %s, want well under the kill grace each", d)
	}
}

// TestIters: from 1 iteration the count grows until the extra iterations
// execute a tenth of the budget, then N is the budget over the count per
// operation.
func TestIters(t *testing.T) {
	s := fakeSampler(t, "", 50)
	n, perOp, err := s.Iters(context.Background(), fakeBench, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	// 2 -> 200 (capped at 100x) -> 20000 (100x again; 20000 is the
	// budget's too), where 20000 extra iterations count 1e6 >= 1e5.
	if n != 20000 || perOp != 50 {
		t.Errorf("Iters = %d, %g; want 20000, 50", n, perOp)
	}
}

func TestNextIters(t *testing.T) {
	for _, tc := range []struct {
		n      int
		d      float64
		budget uint64
		want   int
	}{
		{1, -300, 1e8, 100},   // variation only: 100x
		{1, 0, 1e8, 100},      //
		{10, 2e5, 1e8, 1000},  // the rate says 5000: capped at 100x
		{100, 5e6, 1e8, 2000}, // the rate's count
		{100, 9e7, 1e8, 200},  // the rate says 112: at least 2x
	} {
		if got := nextIters(tc.n, tc.d, tc.budget); got != tc.want {
			t.Errorf("nextIters(%d, %g, %d) = %d, want %d", tc.n, tc.d, tc.budget, got, tc.want)
		}
	}
	for _, tc := range []struct {
		perOp float64
		want  int
	}{{85251, 1174}, {1e9, MinIters}, {0.01, maxIters}} {
		if got := ItersFor(tc.perOp, 1e8); got != tc.want {
			t.Errorf("ItersFor(%g, 1e8) = %d, want %d", tc.perOp, got, tc.want)
		}
	}
}

func TestValgrindProblem(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"BenchmarkX 10 5 ns/op\nPASS\n", ""},
		{"==18327== Command: ./x.test\nruntime.sigreturn__sigaction.abi0\nCallgrind: threads.c:247 (vgCallgrind_post_signal): Assertion 'sigNum == vgCallgrind_current_state.sig' failed.\n",
			"Callgrind: threads.c:247 (vgCallgrind_post_signal): Assertion 'sigNum == vgCallgrind_current_state.sig' failed."},
		{"==7== Process terminating with default action of signal 11 (SIGSEGV)\n==7==  Access not within mapped region\n",
			"Process terminating with default action of signal 11 (SIGSEGV)"},
	} {
		if got := valgrindProblem([]byte(tc.out)); got != tc.want {
			t.Errorf("valgrindProblem(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

// TestSampleTempDir: each run's output file is in a directory made in
// Sampler.TempDir, removed when the sample ends.
func TestSampleTempDir(t *testing.T) {
	s := fakeSampler(t, "", 7)
	s.TempDir = t.TempDir()
	outlog := filepath.Join(t.TempDir(), "outs")
	s.Env = append(s.Env, "FAKE_OUTLOG="+outlog)
	if _, err := s.Sample(context.Background(), fakeBench, 50); err != nil {
		t.Fatal(err)
	}
	outs := readLines(t, outlog)
	for _, out := range outs {
		if filepath.Dir(filepath.Dir(out)) != s.TempDir {
			t.Errorf("output file %s, want it in a directory of %s", out, s.TempDir)
		}
	}
	if left, _ := os.ReadDir(s.TempDir); len(outs) != 2 || len(left) != 0 {
		t.Errorf("%d runs; left in TempDir: %v, want 2 runs and nothing left", len(outs), left)
	}
}
