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
// about budget instructions (0: DefaultBudget), and the instructions per
// operation it saw: ItersFrom at MinIters.
func (s *Sampler) Iters(ctx context.Context, b Bench, budget uint64) (int, float64, error) {
	return s.ItersFrom(ctx, b, budget, MinIters)
}

// ItersFrom is Iters starting from the count start: it counts b at
// MinIters and n + MinIters iterations (as Sample does) from n = start,
// growing n (at least 2x, at most 100x a step, from the per-operation
// count seen so far) until the n extra iterations execute at least a tenth
// of budget, so that the estimate is not the run-to-run variation's; then
// N = ItersFor(per-op, budget). A start near N, such as the count a time
// sample of the benchmark runs (a 20 ms sample executes some 10 to 100 M
// instructions), needs one calibration count (two valgrind processes).
// A sample at N then executes about one budget of instructions in its
// loops (N + 2 MinIters iterations), plus two processes' start and set-up.
func (s *Sampler) ItersFrom(ctx context.Context, b Bench, budget uint64, start int) (int, float64, error) {
	if budget == 0 {
		budget = DefaultBudget
	}
	for n := max(start, MinIters); n <= maxIters; {
		short, long, _, err := s.countPair(ctx, b, MinIters, n+MinIters)
		if err != nil {
			return 0, 0, err
		}
		d := float64(long) - float64(short)
		if d >= float64(budget)/10 {
			perOp := d / float64(n)
			return ItersFor(perOp, budget), perOp, nil
		}
		n = nextIters(n, d, budget)
	}
	return 0, 0, fmt.Errorf("benchmark %s counts no more instructions at %d iterations than at half as many: does its loop run b.N times?", b.Pattern, maxIters)
}

// ItersFor is the iteration count at which budget instructions are perOp
// each: at least MinIters, at most 2^30. It turns any sample's PerOp into
// the count of later samples.
func ItersFor(perOp float64, budget uint64) int {
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

// MinEffect is the minimum effect of a rule deciding on instruction
// counts (score.Rule.MinEffect): a kill needs the mutant's median count
// 0.5% above the baseline's. Wall time's default (1%) guards against code
// layout, which moves time between two builds of the same source; it
// does not move counts: a mutant adding never-executed code counted
// 0.9992 times the baseline, within the A/A ratios of the same binary
// (docs/instructions.md has the runs).
const MinEffect = 1.005
