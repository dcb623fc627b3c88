package instr

import (
	"context"
	"fmt"
	"math"
)

// DefaultBudget is the instructions the N extra iterations of a sample
// should execute (Iters): the run-to-run variation of a whole-process
// count is a few hundred thousand instructions, under 0.5% of this.
const DefaultBudget = 100_000_000

// maxIters bounds the iteration counts Iters tries.
const maxIters = 1 << 30

// Iters returns the iteration count N at which N operations of b execute
// about budget instructions, and the instructions per operation it saw.
// It counts b at n and 2n iterations from n = MinIters, growing n (at most 100x a
// step, from the per-operation count seen so far) until the n extra
// iterations execute at least a tenth of budget, so that the estimate is
// not the run-to-run variation's.
func (s *Sampler) Iters(ctx context.Context, b Bench, budget uint64) (int, float64, error) {
	if budget == 0 {
		budget = DefaultBudget
	}
	for n := MinIters; n <= maxIters; {
		short, err := s.Count(ctx, b, n)
		if err != nil {
			return 0, 0, err
		}
		long, err := s.Count(ctx, b, 2*n)
		if err != nil {
			return 0, 0, err
		}
		d := float64(long) - float64(short)
		if d >= float64(budget)/10 {
			perOp := d / float64(n)
			return itersFor(perOp, budget), perOp, nil
		}
		n = nextIters(n, d, budget)
	}
	return 0, 0, fmt.Errorf("benchmark %s counts no more instructions at %d iterations than at half as many: does its loop run b.N times?", b.Pattern, maxIters)
}

// itersFor is the count at which budget instructions are perOp each: at
// least MinIters, at most maxIters.
func itersFor(perOp float64, budget uint64) int {
	return int(min(max(math.Ceil(float64(budget)/perOp), MinIters), maxIters))
}

// nextIters is the next count to try after n extra iterations counted d
// instructions: the count that would reach budget by d's rate, but at
// least 2n and at most 100n (d may be mostly variation).
func nextIters(n int, d float64, budget uint64) int {
	next := 100 * n
	if d > 0 {
		next = min(next, int(math.Ceil(float64(n)*float64(budget)/d)))
	}
	return max(next, 2*n)
}
