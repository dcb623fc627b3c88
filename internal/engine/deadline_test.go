package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/score"
)

// TestDeadlineWithSlowerClock: a counted mutant's sample must finish
// within its deadline when the clock runs 5 times slower than when the
// baseline was counted, whatever its count ratio below the pre-count's
// censoring (CensorRatio): the deadline scales with the ratio the
// pre-count found. With 10 times the baseline's slowest sample alone, a
// mutant of x2.5 (25 baseline samples' time at a 5x slower clock) timed
// out.
func TestDeadlineWithSlowerClock(t *testing.T) {
	const slowest, clock = 10 * time.Second, 5.0
	for _, ratio := range []float64{0.9, 1, 1.5, 2.5, 2.99} {
		took := time.Duration(clock * ratio * float64(slowest))
		if d := deadlineFor(slowest, ratio, 0); took > d {
			t.Errorf("ratio %v: a sample of %v at a %vx slower clock passes the deadline %v", ratio, took, clock, d)
		}
	}
	if took, old := time.Duration(clock*2.5*float64(slowest)), 10*slowest; took <= old {
		t.Fatalf("the case must tell: %v within the old deadline %v", took, old)
	}
	if d := deadlineFor(time.Second, 1, 0); d != time.Minute {
		t.Errorf("deadline of a 1s baseline: %v, want the minimum of a minute", d)
	}
}

// TestPreCountTimeoutCensors: a pre-count (1/64 of a sample's work) that
// runs past 10 of the baseline's samples is censored in every round, not a
// timeout: a clock a few times slower must not turn a large slowdown
// (alloc-churn at x13.4, killed on a quiet machine) into a timeout. Other
// failures, and a cancelled campaign, stay what they are.
func TestPreCountTimeoutCensors(t *testing.T) {
	ctx := context.Background()
	timeout := errors.New("valgrind: timed out after 1m22s")
	p, err := preTimedOut(ctx, instr.Pre{}, timeout, 1000)
	if err != nil || !p.Censor || p.PerOp != instr.CensorRatio*1000 {
		t.Errorf("timed out: %+v, %v; want censored at %d x the median", p, err, instr.CensorRatio)
	}
	fail := errors.New("exit status 2")
	if p, err := preTimedOut(ctx, instr.Pre{}, fail, 1000); err != fail || p.Censor {
		t.Errorf("failed: %+v, %v; want the failure", p, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := preTimedOut(cancelled, instr.Pre{}, timeout, 1000); err != timeout {
		t.Errorf("cancelled: %v, want the error as it is", err)
	}
	ok := instr.Pre{PerOp: 5}
	if p, err := preTimedOut(ctx, ok, nil, 1000); err != nil || p.PerOp != 5 || p.Censor {
		t.Errorf("no error: %+v, %v; want the pre-count as it is", p, err)
	}
}

// TestCountedStatusWithSlowerClock: a counted mutant's status does not
// depend on the clock. A fake valgrind whose runs take a time
// proportional to the instructions they count, times a clock factor read
// from a file: the baseline (50000 instructions/op) is counted at clock
// 1, then the clock runs 5 times slower for the mutant's samples (x2.9:
// 145000 instructions/op, below the censoring ratio 3) and the
// baseline's later ones. The mutant is killed on instructions/op at the
// first look at both clocks; at 5x its samples take 5 x 2.9 = 14.5 times
// the baseline's first ones, past a deadline of 10 baseline samples that
// did not scale with the pre-count's ratio (a timeout then). The deadline's floor of a minute is lowered to 1 ms, so that the
// deadline is the scaled one.
func TestCountedStatusWithSlowerClock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake valgrind is a shell script")
	}
	for _, clock := range []string{"1", "5"} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
			t.Fatal(err)
		}
		clockFile, fake := filepath.Join(dir, "clock"), filepath.Join(dir, "valgrind")
		script := `#!/bin/sh
out=""; n=""; per=50000
for a in "$@"; do
  case "$a" in
  --cachegrind-out-file=*) out="${a#--cachegrind-out-file=}" ;;
  -test.benchtime=*x) n="${a#-test.benchtime=}"; n="${n%x}" ;;
  */mut.test) per=145000 ;;
  esac
done
c=$((1000 + per * n))
sleep "$(awk -v c="$c" -v k="$(cat ` + clockFile + `)" 'BEGIN { printf "%.3f", k * c / 1e9 }')"
printf 'BenchmarkSerial \t %s\t 1 ns/op\nPASS\n' "$n"
printf 'events: Ir\nsummary: %s\n' "$c" > "$out"
`
		if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(clockFile, []byte("1"), 0o644); err != nil {
			t.Fatal(err)
		}
		serial := Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial"}
		e := New(Config{Packages: []*mutate.Package{{ImportPath: "example.com/p", Dir: dir}},
			Measurement: Measurement{Rule: score.DefaultRule(), Counting: &Counting{MinEffect: instr.MinEffect, Sampler: instr.Sampler{Valgrind: fake}}}}, "", nil)
		e.SetBaseline(map[string]map[string]string{"opt": {"example.com/p": filepath.Join(dir, "p.test")}})
		e.itc[itersKey("opt", serial)] = BenchIters{N: 100, Wall: 20 * time.Millisecond}
		e.count.floor = time.Millisecond
		j := &Job{Mutant: mutate.Mutant{ID: "m1", Operator: "spin-loop", Op: operators.SpinLoop}, Level: "opt", Benches: []Benchmark{serial},
			MutBins: map[string]string{"example.com/p": filepath.Join(dir, "mut.test")}, Out: dir}
		ctx := context.Background()
		if err := e.PrepareCounts(ctx, j); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(clockFile, []byte(clock), 0o644); err != nil {
			t.Fatal(err)
		}
		lr, err := e.Measure(ctx, j)
		if err != nil {
			t.Fatal(err)
		}
		if lr.Status != score.Killed || lr.Metric != score.InstructionsPerOp || lr.MetricReason != "work: an instruction count sees it" || len(lr.Benchmarks) == 0 || lr.Benchmarks[0].Ratio != 2.9 {
			t.Errorf("clock %sx: %s (%s) on %q, tests %+v; want killed on instructions/op at x2.9", clock, lr.Status, lr.Reason, lr.Metric, lr.Benchmarks)
		}
	}
}
