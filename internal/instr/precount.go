package instr

import (
	"context"
	"fmt"
	"time"
)

// confirmShare is the share of CensorRatio times the baseline's median
// at which a one-process pre-count is confirmed by a second process: its
// estimate carries two processes' variation over the pre-count's few
// iterations (up to about 15% of the baseline's count per operation), so
// a mutant near the ratio is counted properly before the decision either
// way.
const confirmShare = 0.8

// A PreBase is what mutants' pre-counts on a benchmark are measured
// against: the baseline's whole-process count at the pre-count's longer
// run (Sampler.PreBaseline), taken once per benchmark.
type PreBase struct {
	N     int    // the pre-count's iterations (PreIters of the samples')
	Count uint64 // the baseline's whole-process instructions at N + MinIters
}

// PreBaseline counts the baseline's benchmark b once at n + MinIters
// iterations, the pre-count's longer run, for PreCount.
func (s *Sampler) PreBaseline(ctx context.Context, b Bench, n int) (PreBase, error) {
	if n < MinIters {
		return PreBase{}, fmt.Errorf("pre-count of %s: iteration count %d, want at least %d", b.Pattern, n, MinIters)
	}
	c, err := s.Count(ctx, b, n+MinIters)
	return PreBase{N: n, Count: c}, err
}

// A Pre is a mutant's pre-count on a benchmark (Sampler.PreCount).
type Pre struct {
	PerOp float64 // instructions per operation
	N     int     // the iterations the runs differ by: the run at N + MinIters, and the one at MinIters when Sure
	// Sure: PerOp is a count of two processes, (I(N + MinIters) -
	// I(MinIters)) / N, as a Sample's. Otherwise it is one process's
	// estimate: the baseline's median plus the mutant's extra instructions
	// at N + MinIters over N + MinIters.
	Sure   bool
	Counts []uint64 // the mutant's whole-process instructions: I(N + MinIters), and I(MinIters) when Sure
	// Censor: a two-process count of at least CensorRatio times the
	// baseline's median (Censors).
	Censor  bool
	Elapsed time.Duration // wall time of the processes
}

// PreCount counts a mutant's benchmark b before its first sample, at
// base.N + MinIters iterations, against the baseline's count there and its
// median count per operation baseMedian. One process gives the estimate
// baseMedian + (I(N + MinIters) - base.Count) / (N + MinIters): the extra
// instructions of the mutant's iterations (the two binaries' set-up is the same; the
// benchmark's own count per operation may change with N, which cancels).
// When that reaches confirmShare of CensorRatio times baseMedian, a second
// process at MinIters (the start alone) counts the mutant properly,
// (I(N + MinIters) - I(MinIters)) / N, and it is censored only when that
// count reaches CensorRatio: censoring rests on a two-process count, and a
// mutant not near it costs one process, not two.
func (s *Sampler) PreCount(ctx context.Context, b Bench, base PreBase, baseMedian float64) (Pre, error) {
	n := base.N
	if n < MinIters {
		return Pre{}, fmt.Errorf("pre-count of %s: iteration count %d, want at least %d", b.Pattern, n, MinIters)
	}
	start := time.Now()
	long, err := s.Count(ctx, b, n+MinIters)
	if err != nil {
		return Pre{}, err
	}
	p := Pre{PerOp: baseMedian + (float64(long)-float64(base.Count))/float64(n+MinIters), N: n, Counts: []uint64{long}}
	if p.PerOp < confirmShare*CensorRatio*baseMedian {
		p.Elapsed = time.Since(start)
		return p, nil
	}
	short, err := s.Count(ctx, b, MinIters)
	if err != nil {
		return Pre{}, err
	}
	p = Pre{N: n, Sure: true, Counts: []uint64{long, short}, Elapsed: time.Since(start)}
	if long <= short {
		return p, fmt.Errorf("benchmark %s counted %d instructions at %d iterations and %d at %d: too few iterations to see its work; raise the count",
			b.Pattern, short, MinIters, long, n+MinIters)
	}
	p.PerOp = float64(long-short) / float64(n)
	p.Censor = censors(p.PerOp, baseMedian)
	return p, nil
}

// String says what the pre-count counted, for a samples file's comment:
// "one process at 20x against the baseline's: 85000.0 instructions/op"
// or "two processes at 2x and 20x: ...".
func (p Pre) String() string {
	how := fmt.Sprintf("one process at %dx against the baseline's", p.N+MinIters)
	if p.Sure {
		how = fmt.Sprintf("two processes at %dx and %dx", MinIters, p.N+MinIters)
	}
	return fmt.Sprintf("%s: %.1f %s", how, p.PerOp, Unit)
}
