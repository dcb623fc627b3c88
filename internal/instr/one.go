package instr

import (
	"context"
	"fmt"
	"time"
)

// setUpOf is what a run of the sample's binary executes besides the
// iterations of its timed loop (process start, the benchmark's set-up, the
// 1-iteration run): Short - MinIters PerOp, from a sample of two
// processes. It is the same at every iteration count, up to the run-to-run
// variation of a process (about 0.1 M instructions).
func setUpOf(smp Sample) float64 {
	return float64(smp.Short) - MinIters*smp.PerOp
}

// sampleOne counts b once, at n + MinIters iterations, and returns the
// instructions per operation (I(n + MinIters) - setUp) / (n + MinIters), for a binary whose set-up count a
// sample of two processes gave (setUpOf). It costs one valgrind process
// instead of two; its error is one process's variation over n + MinIters iterations
// plus the set-up count's, which is shared by every one-process sample
// of the binary (docs/instructions.md measures both).
func (s *Sampler) sampleOne(ctx context.Context, b Bench, n int, setUp float64) (Sample, error) {
	if n < MinIters {
		return Sample{}, fmt.Errorf("instruction sample of %s: iteration count %d, want at least %d", b.Pattern, n, MinIters)
	}
	start := time.Now()
	long, out, err := s.count(ctx, b, n+MinIters)
	if err != nil {
		return Sample{}, err
	}
	smp := Sample{N: n, Long: long, SetUp: setUp, Elapsed: time.Since(start), Output: out}
	if float64(long) <= setUp {
		return smp, fmt.Errorf("benchmark %s counted %d instructions at %d iterations, no more than its set-up's %.0f: too few iterations to see its work; raise the count",
			b.Pattern, long, n+MinIters, setUp)
	}
	smp.PerOp = (float64(long) - setUp) / float64(n+MinIters)
	return smp, nil
}
