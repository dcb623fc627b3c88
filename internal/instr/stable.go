package instr

import (
	"context"
	"fmt"
	"math"
	"time"
)

// stableTol is how far a benchmark's count per operation at 2N may be from
// its count at N for N to be trusted (Stable), unless the count's own
// spread between processes is wider: 1%, ten times the run-to-run
// variation of a sample at the default budget.
const stableTol = 0.01

// maxDoublings bounds how many times Stable doubles N: a sample at 8N
// costs about 8 times the loop work of one at N.
const maxDoublings = 3

// shrinkShare is how much a doubling must shrink the difference between
// the counts per operation at N and 2N for Stable to double again: a
// one-off cost spread over more iterations (a table filled once, a slice
// grown by doubling) halves with each doubling; a difference that does
// not shrink is the count's variation between processes, which more
// iterations do not remove.
const shrinkShare = 0.75

// A Stability is what Stable found of a benchmark's count per operation
// around an iteration count.
type Stability struct {
	N int // the iteration count to sample at
	// Samples are two samples at N, each of its own pair of processes:
	// the baseline's first two.
	Samples [2]Sample
	// Growth is the count per operation at 2N over that at N (the mean of
	// the two samples'), at the last check.
	Growth float64
	// Spread is the larger of the two samples' counts per operation over
	// the smaller: the count's own variation between processes.
	Spread float64
	// Stable: Growth is within StableTol of 1, or within the Spread.
	Stable bool
	// Doublings is how many times N was doubled from the count asked.
	Doublings int
}

// Stable checks that a sample of b at n counts what b costs per operation
// and not a one-off cost amortized over too few iterations: it takes two
// samples at n and counts b once at 2n + MinIters, whose count per
// operation ((I(2n + MinIters) - I(MinIters)) / 2n, with the first
// sample's run at MinIters) must be within StableTol of theirs, or within
// their own spread. Otherwise, when the count per operation is lower at
// 2n (a one-off cost spread over more iterations), n doubles (the run at
// 2n and a second run there become the samples at the new n) and the check
// is made again, up to maxDoublings times, and only while each doubling
// shrinks the difference (shrinkShare). A count per operation that is
// higher at 2n grows with the iterations (a benchmark whose operations
// work on a structure of b.N elements): more iterations cost more per
// operation and never settle it, so the check stops there. The Stability
// is the last check's, Stable false when none passed; its Samples are two
// samples at its N. n comes from counts alone (Iters), so nothing here
// depends on the clock.
func (s *Sampler) Stable(ctx context.Context, b Bench, n int) (Stability, error) {
	a, err := s.Sample(ctx, b, n)
	if err != nil {
		return Stability{}, err
	}
	c, err := s.Sample(ctx, b, n)
	if err != nil {
		return Stability{}, err
	}
	prev := math.Inf(1)
	for i := 0; ; i++ {
		st := Stability{N: n, Samples: [2]Sample{a, c}, Spread: max(a.PerOp, c.PerOp) / min(a.PerOp, c.PerOp), Doublings: i}
		twice, err := s.longer(ctx, b, a, 2*n)
		if err != nil {
			return st, err
		}
		st.Growth = twice.PerOp / ((a.PerOp + c.PerOp) / 2)
		dev := math.Abs(st.Growth - 1)
		st.Stable = dev <= max(stableTol, st.Spread-1)
		if st.Stable || st.Growth > 1 || i == maxDoublings || dev > shrinkShare*prev {
			return st, nil
		}
		if c, err = s.longer(ctx, b, c, 2*n); err != nil {
			return st, err
		}
		a, n, prev = twice, 2*n, dev
	}
}

// longer is a sample of b at n that shares smp's run at MinIters: one
// process, at n + MinIters.
func (s *Sampler) longer(ctx context.Context, b Bench, smp Sample, n int) (Sample, error) {
	start := time.Now()
	long, out, err := s.count(ctx, b, n+MinIters)
	if err != nil {
		return Sample{}, err
	}
	if long <= smp.Short {
		return Sample{}, fmt.Errorf("benchmark %s counted %d instructions at %d iterations and %d at %d: too few iterations to see its work; raise the count",
			b.Pattern, smp.Short, MinIters, long, n+MinIters)
	}
	return Sample{PerOp: float64(long-smp.Short) / float64(n), N: n, Short: smp.Short, Long: long, Elapsed: time.Since(start), Output: out}, nil
}

// String says what the check found, for a log line: "stable at N = 1174
// (x1.0003 at 2N, spread x1.0008)".
func (st Stability) String() string {
	what := "stable"
	if !st.Stable {
		what = "not stable"
	}
	return fmt.Sprintf("%s at N = %d (x%.4f at 2N, spread x%.4f between two processes)", what, st.N, st.Growth, st.Spread)
}
