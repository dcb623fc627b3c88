package engine

import (
	"math"
	"sync"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// noiseState is what an engine learns of the machine's noise: its load
// at the start, and the baseline's own samples of each benchmark (wall
// time: the iteration-count runs and every baseline sample; counts: the
// cached samples), which checkNoise compares with what the kills need.
type noiseState struct {
	mu      sync.Mutex // counted jobs measured at once add samples (Engine.CountedOnly)
	start   results.Snapshot
	benches map[string]*noiseBench // level, benchmark, unit -> its samples
	order   []string               // keys of benches, in order of first sample
	logged  bool                   // logStart logged
}

// noiseBench is one benchmark's baseline samples in one unit at a level.
type noiseBench struct {
	level, name, unit string
	vals              []float64
}

// add records a baseline sample of b at level in unit.
func (n *noiseState) add(level string, b Benchmark, unit string, v float64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	key := level + "\x00" + itersKey(level, b) + "\x00" + unit
	if n.benches == nil {
		n.benches = map[string]*noiseBench{}
	}
	nb := n.benches[key]
	if nb == nil {
		nb = &noiseBench{level: level, name: b.CPUName(), unit: unit}
		n.benches[key] = nb
		n.order = append(n.order, key)
	}
	nb.vals = append(nb.vals, v)
}

// check runs checkNoise over the baseline samples so far, by c's rule:
// wall time's and the counts' separately (each has its own advice), at the
// level of one of a benchmark's three metrics. Every benchmark gets its
// result; the advice speaks only of those for which matters (level, name,
// unit) is true: the benchmarks that measured mutants left undecided. m is
// the machine over the campaign: whether the noise of wall time is the
// load of other processes or the benchmarks' own.
func (n *noiseState) check(c *Config, matters func(level, name, unit string) bool, m results.Machine) ([]results.BenchNoise, []string) {
	var out []results.BenchNoise
	var advice []string
	rule := c.Rule
	for _, unit := range []string{score.SecPerOp, score.InstructionsPerOp} {
		need := noiseNeed{Budget: rule.MaxSamples, Level: rule.Alpha / 3, Test: rule.Test, MinEffect: rule.MinEffect, Margin: rule.Margin}
		if unit == score.InstructionsPerOp {
			need.MinEffect = c.Counting.OnCounts(rule).MinEffect
		}
		var bs, mattering []benchSamples
		var levels []string
		for _, k := range n.order {
			if nb := n.benches[k]; nb.unit == unit {
				bs = append(bs, benchSamples{Name: nb.name, Samples: nb.vals})
				levels = append(levels, nb.level)
				if matters(nb.level, nb.name, unit) {
					mattering = append(mattering, bs[len(bs)-1])
				}
			}
		}
		if len(bs) == 0 {
			continue
		}
		kind := noiseKindOf(unit, c.Counting != nil, m)
		res, _ := checkNoise(bs, need, kind)
		for i, x := range res {
			out = append(out, benchNoiseOf(x, levels[i], unit))
		}
		if _, line := checkNoise(mattering, need, kind); line != "" {
			advice = append(advice, line)
		}
	}
	return out, advice
}

// quietShare is the share of the machine's CPU time other processes may
// use while it still counts as quiet: below it, the noise of wall time is
// the benchmarks' own, not the load's.
const quietShare = 0.1

// noiseKindOf is what samples in unit measure, on machine m, for the
// advice: counts, time beside counts, time on a machine other processes
// load (or whose load is unknown), or time on a quiet machine.
func noiseKindOf(unit string, counting bool, m results.Machine) noiseKind {
	switch {
	case unit == score.InstructionsPerOp:
		return noiseCounts
	case counting:
		return noiseWallTimeBesideCounts
	}
	if others, ok := m.Others(); ok {
		return wallTimeWithOthers(others)
	}
	return noiseWallTime
}

// logStart logs, once, what the engine measures and the machine's load.
// The noise advice waits for the end (summary): only then is it known
// whether the noise left mutants undecided.
func (n *noiseState) logStart(c *Config, prog *Progress) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.logged {
		return
	}
	n.logged = true
	prog.Logf("perfmut: measuring %s; %s", c.Counting.Measures(), takeSnapshot().String())
}

// summary is the noise at the end of the engine's work, for report.json,
// with the advice on the benchmarks for which matters is true (see check).
func (n *noiseState) summary(c *Config, matters func(level, name, unit string) bool) *results.Noise {
	n.mu.Lock()
	defer n.mu.Unlock()
	m := results.Machine{Start: n.start, End: takeSnapshot()}
	benches, advice := n.check(c, matters, m)
	return &results.Noise{Measures: c.Counting.Measures(), Machine: m, Benchmarks: benches, Advice: advice}
}

// benchNoiseOf is r's record for report.json, its samples of metric at
// level.
func benchNoiseOf(r noiseResult, level, metric string) results.BenchNoise {
	return results.BenchNoise{
		Name: r.Name, Level: level, Metric: metric, N: r.Spread.N, Median: known(r.Spread.Median),
		MaxMin: knownPtr(r.Spread.MaxMin), CV: knownPtr(r.Spread.CV), Detectable: knownPtr(r.Detectable),
		TooNoisy: r.TooNoisy, Warnings: r.Spread.Warnings,
	}
}

// known is x, or 0 when x is NaN or infinite (JSON has neither).
func known(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// knownPtr is &x, or nil when x is NaN or infinite.
func knownPtr(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
