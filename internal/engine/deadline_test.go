package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/instr"
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
		if d := deadlineFor(slowest, ratio); took > d {
			t.Errorf("ratio %v: a sample of %v at a %vx slower clock passes the deadline %v", ratio, took, clock, d)
		}
	}
	if took, old := time.Duration(clock*2.5*float64(slowest)), 10*slowest; took <= old {
		t.Fatalf("the case must tell: %v within the old deadline %v", took, old)
	}
	if d := deadlineFor(time.Second, 1); d != time.Minute {
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
