package instr

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// atOnce reports whether the two processes of a sample run at the same
// time: unless Sequential is set, when the machine has 2 CPUs or more. A
// count does not depend on the load (docs/instructions.md), so running
// them side by side changes the sample's wall time, not its value.
func (s *Sampler) atOnce() bool {
	return !s.Sequential && runtime.NumCPU() >= 2
}

// countPair counts b at n and at 2n iterations, at the same time when
// atOnce, and returns both counts and the output of the run at 2n. When
// one run fails the other is stopped; the error is the failed run's (the
// run at n's when both fail on their own), not the stop's.
func (s *Sampler) countPair(ctx context.Context, b Bench, n int) (short, long uint64, out []byte, err error) {
	if !s.atOnce() {
		if short, _, err = s.count(ctx, b, n); err != nil {
			return 0, 0, nil, err
		}
		long, out, err = s.count(ctx, b, 2*n)
		return short, long, out, err
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var shortErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if short, _, shortErr = s.count(pctx, b, n); shortErr != nil {
			cancel()
		}
	}()
	long, out, err = s.count(pctx, b, 2*n)
	if err != nil {
		cancel()
	}
	wg.Wait()
	return short, long, out, pairError(ctx, shortErr, err)
}

// pairError is the error of a pair of runs that stop each other: ctx's
// own when it ended, else the first error that is not the other run's
// stop (context.Canceled from countPair's cancel).
func pairError(ctx context.Context, shortErr, longErr error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for _, err := range []error{shortErr, longErr} {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	if shortErr != nil {
		return shortErr
	}
	return longErr
}
