package instr

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// confirmShare is the share of CensorRatio times the baseline's median
// at which a one-process pre-count is confirmed by a second process: its
// estimate rests on the baseline's set-up, which may differ from the
// mutant's by a few per cent of a pre-count, so a mutant near the ratio
// is counted properly before the decision either way.
const confirmShare = 0.8

// A Pre is a mutant's pre-count on a benchmark (Sampler.PreCount).
type Pre struct {
	PerOp float64 // instructions per operation
	N     int     // iterations of the run, or of the shorter run of two
	// Sure: PerOp is a count of two processes, (I(2N) - I(N)) / N.
	// Otherwise it is one process's, (I(N) - set-up) / N, with the
	// baseline's set-up.
	Sure   bool
	Counts []uint64 // whole-process instructions: I(N), and I(2N) when Sure
	SetUp  float64  // the baseline's set-up count subtracted when not Sure
	// Censor: a two-process count of at least CensorRatio times the
	// baseline's median (Censors).
	Censor  bool
	Elapsed time.Duration // wall time of the processes
}

// PreCount counts a mutant's benchmark b before its first sample, at n
// iterations (PreIters of the samples' count), against base, the
// baseline's two-process samples of b at the samples' count. One process
// at n gives (I(n) - set-up) / n, with the baseline's set-up count (the
// median of 2 I(N) - I(2N) over base). When that reaches confirmShare of
// CensorRatio times the baseline's median, a second process at 2n counts
// it properly, and the mutant is censored only when that count reaches
// CensorRatio: censoring rests on a two-process count, and a mutant that
// is not near it costs one process instead of two.
func (s *Sampler) PreCount(ctx context.Context, b Bench, n int, base []Sample) (Pre, error) {
	setUp, median, ok := baseline(base)
	if !ok {
		return Pre{}, fmt.Errorf("pre-count of %s: no two-process sample of the baseline to take its set-up from", b.Pattern)
	}
	if n < MinIters {
		return Pre{}, fmt.Errorf("pre-count of %s: iteration count %d, want at least %d", b.Pattern, n, MinIters)
	}
	start := time.Now()
	short, _, err := s.count(ctx, b, n)
	if err != nil {
		return Pre{}, err
	}
	p := Pre{PerOp: (float64(short) - setUp) / float64(n), N: n, Counts: []uint64{short}, SetUp: setUp}
	if p.PerOp < confirmShare*CensorRatio*median {
		p.Elapsed = time.Since(start)
		return p, nil
	}
	long, _, err := s.count(ctx, b, 2*n)
	if err != nil {
		return Pre{}, err
	}
	p = Pre{N: n, Sure: true, Counts: []uint64{short, long}, Elapsed: time.Since(start)}
	if long <= short {
		return p, fmt.Errorf("benchmark %s counted %d instructions at %d iterations and %d at %d: too few iterations to see its work; raise the count",
			b.Pattern, short, n, long, 2*n)
	}
	p.PerOp = float64(long-short) / float64(n)
	p.Censor = Censors(p.PerOp, median)
	return p, nil
}

// String says what the pre-count counted, for a samples file's comment:
// "one process at 18x, less the baseline's set-up of 12345678: 85000.0
// instructions/op" or "two processes at 18x and 36x: ...".
func (p Pre) String() string {
	how := fmt.Sprintf("one process at %dx, less the baseline's set-up of %.0f", p.N, p.SetUp)
	if p.Sure {
		how = fmt.Sprintf("two processes at %dx and %dx", p.N, 2*p.N)
	}
	return fmt.Sprintf("%s: %.1f %s", how, p.PerOp, Unit)
}

// baseline returns the median set-up count (setUpOf) of base's
// two-process samples and the median PerOp of all of them; !ok when none
// is a two-process sample.
func baseline(base []Sample) (setUp, median float64, ok bool) {
	var setUps, perOps []float64
	for _, smp := range base {
		perOps = append(perOps, smp.PerOp)
		if smp.Short > 0 {
			setUps = append(setUps, setUpOf(smp))
		}
	}
	if len(setUps) == 0 {
		return 0, 0, false
	}
	return medianOf(setUps), medianOf(perOps), true
}

// medianOf is the median of v (not empty); it sorts v.
func medianOf(v []float64) float64 {
	slices.Sort(v)
	return (v[(len(v)-1)/2] + v[len(v)/2]) / 2
}
