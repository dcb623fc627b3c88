package instr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// orderSampler is fakeSampler logging each run's start and end to a file
// it returns, with FAKE_BARRIER=barrier when barrier is not "".
func orderSampler(t *testing.T, barrier string) (*Sampler, string) {
	t.Helper()
	s := fakeSampler(t, "", 7)
	order := filepath.Join(t.TempDir(), "order")
	s.Env = append(s.Env, "FAKE_ORDER="+order, "FAKE_BARRIER="+barrier)
	return s, order
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// TestSampleAtOnce: on 2 CPUs or more the runs at 2 and N+2 of a sample
// run at the same time (each waits, after its start, for the other's
// start), and the sample is the same as sequential runs give.
func TestSampleAtOnce(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: a sample's runs are sequential")
	}
	s, order := orderSampler(t, "2")
	got, err := s.Sample(context.Background(), fakeBench, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got.PerOp != 7 || got.Short != 1014 || got.Long != 1364 || !strings.Contains(string(got.Output), "BenchmarkFake \t 52\t") {
		t.Errorf("Sample = %+v, want PerOp 7, Short 1014, Long 1364, the output of the run at 52", got)
	}
	lines := readLines(t, order)
	if len(lines) != 4 || !slices.Equal(slices.Sorted(slices.Values(lines[:2])), []string{"start 2", "start 52"}) ||
		!strings.HasPrefix(lines[2], "end") || !strings.HasPrefix(lines[3], "end") {
		t.Errorf("runs started and ended as %q, want both starts before either end", lines)
	}
}

// TestSampleSequential: with Sequential the run at N+2 starts after the
// run at 2 has ended, and the sample is the same.
func TestSampleSequential(t *testing.T) {
	s, order := orderSampler(t, "")
	s.Sequential = true
	got, err := s.Sample(context.Background(), fakeBench, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got.PerOp != 7 || got.Short != 1014 || got.Long != 1364 {
		t.Errorf("Sample = %+v, want PerOp 7, Short 1014, Long 1364", got)
	}
	if lines, want := readLines(t, order), []string{"start 2", "end 2", "start 52", "end 52"}; !slices.Equal(lines, want) {
		t.Errorf("runs started and ended as %q, want %q", lines, want)
	}
}

// TestSamplePairStops: when the shorter run (at 2) fails, the longer (at
// N+2, which would run for a minute) is stopped; the error is the one
// sequential runs give, whichever run fails first: the shorter run's if it
// fails, else the longer run's.
func TestSamplePairStops(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: a sample's runs are sequential")
	}
	s := fakeSampler(t, "sleep", 7)
	s.Timeout = time.Minute
	s.Env = append(s.Env, "FAKE_FAILN=2")
	start := time.Now()
	if _, err := s.Sample(context.Background(), fakeBench, 50); err == nil || !strings.Contains(err.Error(), "exit status 1: --- FAIL: at 2") {
		t.Errorf("Sample with the run at 2 failing: error %v, want that run's failure", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Sample with the run at 2 failing returned after %s: the run at 52 was not stopped", d)
	}
	s = fakeSampler(t, "", 7)
	s.Env = append(s.Env, "FAKE_FAILN=52")
	if _, err := s.Sample(context.Background(), fakeBench, 50); err == nil || !strings.Contains(err.Error(), "exit status 1: --- FAIL: at 52") {
		t.Errorf("Sample with the run at 52 failing: error %v, want that run's failure", err)
	}
	for range 10 { // both fail at once: always the shorter run's error
		s := fakeSampler(t, "wrongn", 7)
		if _, err := s.Sample(context.Background(), fakeBench, 50); err == nil || !strings.Contains(err.Error(), "the benchmark ran 1 iterations, want 2") {
			t.Fatalf("Sample with both runs failing: error %v, want the run at 2's", err)
		}
	}
}

func TestPairError(t *testing.T) {
	fail, other := errors.New("exit status 1"), errors.New("other")
	stopped, cancelled := context.WithCancel(context.Background())
	cancelled()
	for _, tc := range []struct {
		ctx         context.Context
		short, long error
		want        error
	}{
		{context.Background(), nil, nil, nil},
		{context.Background(), fail, context.Canceled, fail},
		{context.Background(), nil, fail, fail},
		{context.Background(), fail, other, fail},
		{stopped, fail, nil, context.Canceled},
	} {
		if got := pairError(tc.ctx, tc.short, tc.long); got != tc.want {
			t.Errorf("pairError(ctx %v, %v, %v) = %v, want %v", tc.ctx.Err(), tc.short, tc.long, got, tc.want)
		}
	}
}
