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
	advised bool                   // the advice was logged at the start
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

// check runs checkNoise over the baseline samples so far, by c's rule: wall time's
// and the counts' separately (each has its own advice), at the level of
// one of a benchmark's three metrics.
func (n *noiseState) check(c *Config) ([]results.BenchNoise, []string) {
	var out []results.BenchNoise
	var advice []string
	rule := c.Rule
	for _, unit := range []string{score.SecPerOp, score.InstructionsPerOp} {
		need := noiseNeed{Budget: rule.MaxSamples, Level: rule.Alpha / 3, Test: rule.Test, MinEffect: rule.MinEffect, Margin: rule.Margin}
		if unit == score.InstructionsPerOp {
			need.MinEffect = c.Counting.OnCounts(rule).MinEffect
		}
		var bs []benchSamples
		var levels []string
		for _, k := range n.order {
			if nb := n.benches[k]; nb.unit == unit {
				bs = append(bs, benchSamples{Name: nb.name, Samples: nb.vals})
				levels = append(levels, nb.level)
			}
		}
		if len(bs) == 0 {
			continue
		}
		kind := noiseWallTime
		switch {
		case unit == score.InstructionsPerOp:
			kind = noiseCounts
		case c.Counting != nil:
			kind = noiseWallTimeBesideCounts
		}
		res, line := checkNoise(bs, need, kind)
		for i, x := range res {
			out = append(out, benchNoiseOf(x, levels[i], unit))
		}
		if line != "" {
			advice = append(advice, line)
		}
	}
	return out, advice
}

// adviseAtStart logs, once, the machine's load and what the baseline
// samples taken so far say of its noise.
func (n *noiseState) adviseAtStart(c *Config, prog *Progress) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.advised {
		return
	}
	n.advised = true
	prog.Logf("perfmut: measuring %s; %s", c.Counting.Measures(), takeSnapshot().String())
	_, advice := n.check(c)
	for _, a := range advice {
		prog.Logf("perfmut: %s", a)
	}
}

// summary is the noise at the end of the engine's work, for report.json.
func (n *noiseState) summary(c *Config) *results.Noise {
	n.mu.Lock()
	defer n.mu.Unlock()
	benches, advice := n.check(c)
	return &results.Noise{Measures: c.Counting.Measures(), Machine: results.Machine{Start: n.start, End: takeSnapshot()}, Benchmarks: benches, Advice: advice}
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
