package instr

import (
	"context"
	"runtime"
)

// atOnce reports whether the two processes of a sample run at the same
// time: unless Sequential is set, when the machine has 2 CPUs or more. A
// count does not depend on the load (docs/instructions.md), so running
// them side by side changes the sample's wall time, not its value.
func (s *Sampler) atOnce() bool {
	return !s.Sequential && runtime.NumCPU() >= 2
}

// countPair counts b at lo and at hi iterations, at the same time when
// atOnce, and returns both counts and the output of the run at hi. The
// error is the one the runs one after the other would give: the run at
// lo's if it fails (the run at hi is then stopped), else the run at hi's.
func (s *Sampler) countPair(ctx context.Context, b Bench, lo, hi int) (short, long uint64, out []byte, err error) {
	if !s.atOnce() {
		if short, _, err = s.count(ctx, b, lo); err != nil {
			return 0, 0, nil, err
		}
		long, out, err = s.count(ctx, b, hi)
		return short, long, out, err
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var longErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		long, out, longErr = s.count(lctx, b, hi)
	}()
	short, _, err = s.count(ctx, b, lo)
	if err != nil {
		cancel()
	}
	<-done
	return short, long, out, pairError(ctx, err, longErr)
}

// pairError is the error of a pair of runs where the failure of the
// shorter run stops the longer: ctx's own when it ended, else the shorter
// run's, else the longer run's.
func pairError(ctx context.Context, shortErr, longErr error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if shortErr != nil {
		return shortErr
	}
	return longErr
}
