package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// iters returns how benchmark b is sampled at level, found once per
// engine on the baseline binary. Unless -benchtime fixes it (Nx) or asks
// for time-based samples (a duration), the count N is the one that makes a
// sample take about SampleTime: one run at -test.benchtime=SampleTime
// gives the time per iteration, N = SampleTime / that, at least 1. Then
// itersSamples baseline samples at N (not kept; one when there is no
// censoring cap) time a whole sample, process start included: their median is Wall (a stall of one sample on
// a loaded machine does not raise every cap of the campaign), and their
// spread gives the censoring slack. Baseline and mutant samples all run N iterations, so
// per-op costs that depend on b.N are the same on both sides and there is
// no b.N ramp in a sample. The baseline samples go to noise.
func (ic itersCache) iters(ctx context.Context, e *Engine, noise *noiseState, sites benchSites, level string, b Benchmark) (BenchIters, error) {
	key := itersKey(level, b)
	if it, ok := ic[key]; ok {
		return it, nil
	}
	bin, dir := sites.bins[level][b.Pkg], sites.pkgs[b.Pkg].Dir
	var it BenchIters
	switch fixed, ok := fixedIters(e.Config().Benchtime); {
	case ok:
		it.N = fixed
	case e.Config().Benchtime != "":
		// time-based samples: N stays 0
	default:
		vals, res, err := e.BenchOnce(ctx, bin, dir, b, e.Config().SampleTime.String(), 0)
		if err != nil {
			return it, err
		}
		if vals == nil {
			return it, fmt.Errorf("baseline benchmark %s of %s failed: %s", b.Name, b.Pkg, LastLines(res.Output, 3))
		}
		it.N = itersFor(e.Config().SampleTime, vals["sec/op"])
	}
	samples := itersSamples
	if e.Config().CensorCap(it, 0) == 0 {
		samples = 1 // no cap: one sample times it (the mutant's timeout, the low-iterations warning)
	}
	var walls []time.Duration
	for range samples {
		vals, res, err := e.BenchOnce(ctx, bin, dir, b, e.Config().benchtimeArg(it), 0)
		if err != nil {
			return it, err
		}
		if !res.OK() || vals == nil {
			return it, fmt.Errorf("baseline benchmark %s of %s failed: %s", b.Name, b.Pkg, LastLines(res.Output, 3))
		}
		walls = append(walls, res.Elapsed)
		if e.Config().Counting == nil { // counting, the time samples that count are the timed pairs' (sampleOnce)
			noise.add(level, b, "sec/op", vals["sec/op"])
		}
		it.SecPerOp, it.Units = vals["sec/op"], unionUnits(it.Units, sortedUnits(vals))
	}
	slices.Sort(walls)
	it.Wall, it.Slack = walls[len(walls)/2], censorSlack(walls[0], walls[len(walls)-1])
	ic[key] = it
	return it, nil
}

// itersCache is how each benchmark is sampled at each level (see iters),
// by itersKey.
type itersCache map[string]BenchIters

// itersKey is the key of benchmark b at level in an itersCache.
func itersKey(level string, b Benchmark) string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d", level, b.Pkg, b.Name, b.CPU)
}

// learnUnits adds to the units known of benchmark b at level (found by
// iters) those a later baseline sample reported (units, in report order):
// a custom metric a benchmark reports only in some runs then counts in
// the DecideAhead family of every later mutant measured on it.
func (ic itersCache) learnUnits(level string, b Benchmark, units []string) {
	key := itersKey(level, b)
	if it, ok := ic[key]; ok {
		it.Units = unionUnits(it.Units, units)
		ic[key] = it
	}
}

// unionUnits returns the units of a and b, each once, in report order.
func unionUnits(a, b []string) []string {
	vals := map[string]float64{}
	for _, u := range append(slices.Clone(a), b...) {
		vals[u] = 0
	}
	return sortedUnits(vals)
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
