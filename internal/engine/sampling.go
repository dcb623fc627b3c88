package engine

import (
	"fmt"
	"time"
)

// DefaultSampleTime is the default Measurement.SampleTime: the time one
// benchmark sample should take (see docs/runner.md for the measurements
// behind the choice).
const DefaultSampleTime = 20 * time.Millisecond

// lowIterations is the iteration count below which a sample is mostly the
// first, cold iterations of the benchmark; the result then says so.
const lowIterations = 10

// CensorSlack is the time added to CensorFactor times the slowest
// baseline sample when the baseline's spread is unknown (a benchIters made
// without iters), and the most slack iters derives from a benchmark's
// baseline samples (see censorSlack).
const CensorSlack = 100 * time.Millisecond

// minCensorSlack is the least slack of a censoring cap: a process start
// (about 3 ms on the development machine) and the scheduling delays of a
// loaded machine fit in it (at 20 ms an unchanged binary's sample was
// censored under load).
const minCensorSlack = 50 * time.Millisecond

// slackSpread is how many times the spread of the baseline's timing
// samples (slowest minus fastest wall time) the slack is at least.
const slackSpread = 3

// itersSamples is how many whole baseline samples iters times at the
// chosen count: their median is the first censoring cap's base, their
// spread gives the slack.
const itersSamples = 3

// BenchIters is how one benchmark is sampled at one level: the iteration
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
// fastest to slowest: slackSpread times their spread, at least
// minCensorSlack and at most CensorSlack.
func censorSlack(fastest, slowest time.Duration) time.Duration {
	return min(max(minCensorSlack, slackSpread*(slowest-fastest)), CensorSlack)
}

// benchtimeArg is the -test.benchtime of every sample of a benchmark run
// with it: a fixed iteration count, or the campaign's duration in the
// time-based mode (a -benchtime given as a duration).
func (m Measurement) benchtimeArg(it BenchIters) string {
	if it.N > 0 {
		return fmt.Sprintf("%dx", it.N)
	}
	return m.Benchtime
}

// CensorCap is how long a mutant sample may run before it is stopped and
// recorded as censored: CensorFactor times the slowest baseline sample of
// the benchmark so far, plus the benchmark's slack; 0 (no cap) when
// censoring is off or the samples are time-based (a slower mutant then
// runs fewer iterations, not longer).
func (m Measurement) CensorCap(it BenchIters, slowestBase time.Duration) time.Duration {
	if m.CensorFactor <= 0 || it.N == 0 {
		return 0
	}
	return time.Duration(m.CensorFactor*float64(max(it.Wall, slowestBase))) + it.SlackOrDefault()
}
