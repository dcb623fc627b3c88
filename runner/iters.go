package runner

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
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

// CensorSlack is the time added to CensorFactor times the slowest
// baseline sample when the baseline's spread is unknown (a benchIters made
// without iters), and the most slack iters derives from a benchmark's
// baseline samples (see censorSlack).
const CensorSlack = 100 * time.Millisecond

// MinCensorSlack is the least slack of a censoring cap: a process start
// (about 3 ms on the development machine) and the scheduling delays of a
// loaded machine fit in it (at 20 ms an unchanged binary's sample was
// censored under load).
const MinCensorSlack = 50 * time.Millisecond

// SlackSpread is how many times the spread of the baseline's timing
// samples (slowest minus fastest wall time) the slack is at least.
const SlackSpread = 3

// itersSamples is how many whole baseline samples iters times at the
// chosen count: their median is the first censoring cap's base, their
// spread gives the slack.
const itersSamples = 3

// fixedNRE matches a -benchtime that fixes the iteration count (1000x).
var fixedNRE = regexp.MustCompile(`^([1-9][0-9]*)x$`)

// ValidBenchtime reports whether s is a -benchtime go test accepts: a
// positive duration (100ms) or a positive count (1000x); go test rejects
// 0x and durations of 0 or less.
func ValidBenchtime(s string) bool {
	d, err := time.ParseDuration(s)
	return (err == nil && d > 0) || fixedNRE.MatchString(s)
}

// benchIters is how one benchmark is sampled at one level: the iteration
// count both sides run with, how long the baseline samples timed when the
// count was chosen took (their median: the first censoring cap's base),
// the censoring slack derived from them, the time per iteration and the
// metrics the baseline reports.
type BenchIters struct {
	N        int
	Wall     time.Duration
	Slack    time.Duration // 0: CensorSlack
	SecPerOp float64
	Units    []string
}

// SlackOrDefault is the time added to the censoring cap's multiple.
func (it BenchIters) SlackOrDefault() time.Duration {
	if it.Slack > 0 {
		return it.Slack
	}
	return CensorSlack
}

// censorSlack is the slack of a benchmark whose baseline samples took
// fastest to slowest: SlackSpread times their spread, at least
// MinCensorSlack and at most CensorSlack.
func censorSlack(fastest, slowest time.Duration) time.Duration {
	return min(max(MinCensorSlack, SlackSpread*(slowest-fastest)), CensorSlack)
}

// benchtimeArg is the -test.benchtime of every sample of a benchmark run
// with it: a fixed iteration count, or the campaign's duration in the
// time-based mode (a -benchtime given as a duration).
func (m *Measurement) benchtimeArg(it BenchIters) string {
	if it.N > 0 {
		return fmt.Sprintf("%dx", it.N)
	}
	return m.Benchtime
}

// iters returns how benchmark b is sampled at level, found once per
// campaign on the baseline binary. Unless -benchtime fixes it (Nx) or asks
// for time-based samples (a duration), the count N is the one that makes a
// sample take about SampleTime: one run at -test.benchtime=SampleTime
// gives the time per iteration, N = SampleTime / that, at least 1. Then
// itersSamples baseline samples at N (not kept; one when there is no
// censoring cap) time a whole sample, process start included: their median is Wall (a stall of one sample on
// a loaded machine does not raise every cap of the campaign), and their
// spread gives the censoring slack. Baseline and mutant samples all run N iterations, so
// per-op costs that depend on b.N are the same on both sides and there is
// no b.N ramp in a sample. The baseline samples go to noise.
func (ic itersCache) iters(ctx context.Context, e *env, noise *noiseState, sites benchSites, level string, b Benchmark) (BenchIters, error) {
	key := itersKey(level, b)
	if it, ok := ic[key]; ok {
		return it, nil
	}
	bin, dir := sites.bins[level][b.Pkg], sites.pkgs[b.Pkg].Dir
	var it BenchIters
	switch m := fixedNRE.FindStringSubmatch(e.c.Benchtime); {
	case m != nil:
		it.N, _ = strconv.Atoi(m[1])
	case e.c.Benchtime != "":
		// time-based samples: N stays 0
	default:
		vals, res, err := e.benchOnce(ctx, bin, dir, b, e.c.SampleTime.String(), 0)
		if err != nil {
			return it, err
		}
		if vals == nil {
			return it, fmt.Errorf("baseline benchmark %s of %s failed: %s", b.Name, b.Pkg, LastLines(res.Output, 3))
		}
		it.N = itersFor(e.c.SampleTime, vals["sec/op"])
	}
	samples := itersSamples
	if e.c.censorCap(it, 0) == 0 {
		samples = 1 // no cap: one sample times it (the mutant's timeout, the low-iterations warning)
	}
	var walls []time.Duration
	for range samples {
		vals, res, err := e.benchOnce(ctx, bin, dir, b, e.c.benchtimeArg(it), 0)
		if err != nil {
			return it, err
		}
		if !res.OK() || vals == nil {
			return it, fmt.Errorf("baseline benchmark %s of %s failed: %s", b.Name, b.Pkg, LastLines(res.Output, 3))
		}
		walls = append(walls, res.Elapsed)
		if e.c.Counting == nil { // counting, the time samples that count are the timed pairs' (sampleOnce)
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

// censorCap is how long a mutant sample may run before it is stopped and
// recorded as censored: CensorFactor times the slowest baseline sample of
// the benchmark so far, plus the benchmark's slack; 0 (no cap) when
// censoring is off or the samples are time-based (a slower mutant then
// runs fewer iterations, not longer).
func (m *Measurement) censorCap(it BenchIters, slowestBase time.Duration) time.Duration {
	if m.CensorFactor <= 0 || it.N == 0 {
		return 0
	}
	return time.Duration(m.CensorFactor*float64(max(it.Wall, slowestBase))) + it.SlackOrDefault()
}
