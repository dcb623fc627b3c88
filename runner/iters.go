package runner

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"time"
)

// DefaultSampleTime is the default Campaign.SampleTime: the time one
// benchmark sample should take (see docs/runner.md for the measurements
// behind the choice).
const DefaultSampleTime = 20 * time.Millisecond

// LowIterations is the iteration count below which a sample is mostly the
// first, cold iterations of the benchmark; the result then says so.
const LowIterations = 10

// CensorSlack is added to CensorFactor times the slowest baseline sample
// to give the time after which a mutant sample is stopped (censored): a
// process start and a scheduling hiccup on a loaded machine fit in it.
const CensorSlack = 100 * time.Millisecond

// fixedNRE matches a -benchtime that fixes the iteration count (1000x).
var fixedNRE = regexp.MustCompile(`^([1-9][0-9]*)x$`)

// benchIters is how one benchmark is sampled at one level: the iteration
// count both sides run with, and how long a baseline sample took when the
// count was chosen (the first censoring cap).
type benchIters struct {
	N    int
	Wall time.Duration
}

// benchtimeArg is the -test.benchtime of every sample of a benchmark run
// with it: a fixed iteration count, or the campaign's duration in the
// time-based mode (a -benchtime given as a duration).
func (r *run) benchtimeArg(it benchIters) string {
	if it.N > 0 {
		return fmt.Sprintf("%dx", it.N)
	}
	return r.c.Benchtime
}

// iters returns how benchmark b is sampled at level, found once per
// campaign on the baseline binary. Unless -benchtime fixes it (Nx) or asks
// for time-based samples (a duration), the count N is the one that makes a
// sample take about SampleTime: one run at -test.benchtime=SampleTime
// gives the time per iteration, N = SampleTime / that, at least 1. Then
// one baseline sample at N (not kept) times a whole sample, process start
// included. Baseline and mutant samples all run N iterations, so per-op
// costs that depend on b.N are the same on both sides and there is no b.N
// ramp in a sample.
func (r *run) iters(ctx context.Context, level string, b benchmark) (benchIters, error) {
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%d", level, b.Pkg, b.Name, b.CPU)
	if it, ok := r.benchIters[key]; ok {
		return it, nil
	}
	bin, dir := r.baseBins[level][b.Pkg], r.pkgs[b.Pkg].Dir
	var it benchIters
	switch m := fixedNRE.FindStringSubmatch(r.c.Benchtime); {
	case m != nil:
		it.N, _ = strconv.Atoi(m[1])
	case r.c.Benchtime != "":
		// time-based samples: N stays 0
	default:
		vals, res, err := r.benchOnce(ctx, bin, dir, b, r.c.SampleTime.String(), 0)
		if err != nil {
			return it, err
		}
		if vals == nil {
			return it, fmt.Errorf("baseline benchmark %s of %s failed: %s", b.Name, b.Pkg, lastLines(res.Output, 3))
		}
		it.N = itersFor(r.c.SampleTime, vals["sec/op"])
	}
	_, res, err := r.benchOnce(ctx, bin, dir, b, r.benchtimeArg(it), 0)
	if err != nil {
		return it, err
	}
	if !res.ok() {
		return it, fmt.Errorf("baseline benchmark %s of %s failed: %s", b.Name, b.Pkg, lastLines(res.Output, 3))
	}
	it.Wall = res.Elapsed
	r.benchIters[key] = it
	return it, nil
}

// itersFor is the iteration count that makes a sample take about target
// when one iteration takes secPerOp: at least 1, at most 1e9.
func itersFor(target time.Duration, secPerOp float64) int {
	if !(secPerOp > 0) {
		return 1
	}
	n := math.Round(target.Seconds() / secPerOp)
	return int(min(max(n, 1), 1e9))
}

// censorCap is how long a mutant sample may run before it is stopped and
// recorded as censored: CensorFactor times the slowest baseline sample of
// the benchmark so far, plus CensorSlack; 0 (no cap) when censoring is off
// or the samples are time-based (a slower mutant then runs fewer
// iterations, not longer).
func (r *run) censorCap(it benchIters, slowestBase time.Duration) time.Duration {
	if r.c.CensorFactor <= 0 || it.N == 0 {
		return 0
	}
	return time.Duration(r.c.CensorFactor*float64(max(it.Wall, slowestBase))) + CensorSlack
}
