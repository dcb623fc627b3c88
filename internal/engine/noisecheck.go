package engine

// The noise check: whether the machine's noise, seen in the baseline's own
// samples, hides the slowdowns that matter to the campaign's verdicts.
// spreadOf is the spread of a benchmark's baseline samples, a pure
// function over them; checkNoise says, from the spreads and the
// campaign's sample budget, whether the slowdown that matters (the rule's
// margin, or its minimum effect when the margin is off) is detectable at
// all, and if not, the one line of advice to show at the start (count
// instructions instead: -measure instructions, whose counts do not move
// with the load).

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/score"
)

// noiseNeed is what the campaign's verdicts need: the slowdown that matters
// (the margin, else the minimum effect) detected within Budget samples
// each at Level with Test.
type noiseNeed struct {
	Budget    int        // samples each side at the last look (-max-samples)
	Level     float64    // one test's one-sided level: the rule's alpha over the tests that share it
	Test      score.Test // the rule's test (KS, MWU)
	MinEffect float64    // the rule's minimum effect, as a ratio (1.01)
	// Margin is the rule's margin (score.Rule's Margin with its default
	// filled in, 1.05): the slowdown a survivor must rule out. 0 or
	// negative (the margin off): the minimum effect is what matters.
	Margin float64
}

// matters is the slowdown that matters, as a ratio: the margin, or the
// minimum effect when the margin is off. A benchmark that detects a
// slowdown below the margin but above the minimum effect is not too
// noisy: the slowdowns it misses are ones the rule lets survive anyway.
func (n noiseNeed) matters() float64 {
	if n.Margin > 0 {
		return n.Margin
	}
	return n.MinEffect
}

// mattersName names matters in the advice, with the setting to raise.
func (n noiseNeed) mattersName() (name, raise string) {
	if n.Margin > 0 {
		return "the margin", "-margin"
	}
	return "the minimum effect", "the minimum effect"
}

// A benchSamples is one benchmark's baseline samples.
type benchSamples struct {
	Name    string
	Samples []float64
}

// A noiseResult is one benchmark's noise against the need.
type noiseResult struct {
	Name   string       `json:"name"`
	Spread sampleSpread `json:"spread"`
	// Detectable is the smallest slowdown (a ratio) the benchmark detects
	// with power score.DetectPower at the need's budget, level and test
	// (score.MinDetectable over its samples); NaN when unknown.
	Detectable float64 `json:"detectable"`
	// TooNoisy is whether Detectable is above the slowdown that matters
	// (the need's margin, else its minimum effect): a slowdown a survivor
	// must rule out may go unseen.
	TooNoisy bool `json:"too_noisy"`
}

// noiseKind is what checkNoise's samples measure, and on what machine,
// which decides its advice.
type noiseKind struct {
	what noiseWhat
	// others is the share of the machine's CPU time that processes other
	// than perfmut used (results.Machine.Others), if known: wall time's
	// noise is the load's, or on a quiet machine the benchmarks' own.
	others float64
	known  bool
}

// noiseWhat is what the samples measure.
type noiseWhat int

const (
	whatWallTime noiseWhat = iota
	whatCounts
	whatWallTimeBesideCounts
)

// The kinds of samples.
var (
	// noiseWallTime is a campaign measuring time, the machine's load not
	// known: the advice is to count instructions.
	noiseWallTime = noiseKind{what: whatWallTime}
	// noiseCounts are instruction counts: the advice cannot be to count them.
	noiseCounts = noiseKind{what: whatCounts}
	// noiseWallTimeBesideCounts is the time samples of a campaign that counts
	// the others: these mutants' cost is one a count does not see.
	noiseWallTimeBesideCounts = noiseKind{what: whatWallTimeBesideCounts}
)

// wallTimeWithOthers is a campaign measuring time on a machine whose other
// processes used the share others of its CPU time.
func wallTimeWithOthers(others float64) noiseKind {
	return noiseKind{what: whatWallTime, others: others, known: true}
}

// checkNoise compares each benchmark's noise with the need, and returns the
// results in the order of benches and one line of advice: "" when every
// benchmark whose noise is known can detect the slowdown that matters
// (the need's margin, else its minimum effect). kind says what the
// samples measure.
func checkNoise(benches []benchSamples, need noiseNeed, kind noiseKind) ([]noiseResult, string) {
	var out []noiseResult
	var noisy []noiseResult
	for _, b := range benches {
		r := noiseResult{Name: b.Name, Spread: spreadOf(b.Samples), Detectable: math.NaN()}
		if len(b.Samples) >= 2 && need.Budget >= 1 {
			r.Detectable = score.MinDetectable(b.Samples, need.Budget, need.Level, need.Test)
		}
		r.TooNoisy = r.Detectable > need.matters()
		if r.TooNoisy {
			noisy = append(noisy, r)
		}
		out = append(out, r)
	}
	return out, noiseAdvice(noisy, len(benches), need, kind)
}

// maxNoisyNamed is how many noisy benchmarks the advice names.
const maxNoisyNamed = 3

// noiseAdvice is checkNoise's line for the noisy benchmarks of n.
func noiseAdvice(noisy []noiseResult, n int, need noiseNeed, kind noiseKind) string {
	if len(noisy) == 0 {
		return ""
	}
	var names []string
	for _, r := range noisy[:min(len(noisy), maxNoisyNamed)] {
		names = append(names, fmt.Sprintf("%s detects %s", r.Name, slowdownPercent(r.Detectable)))
	}
	if more := len(noisy) - maxNoisyNamed; more > 0 {
		names = append(names, fmt.Sprintf("%d more", more))
	}
	name, raise := need.mattersName()
	line := fmt.Sprintf("noise: %d of %d benchmarks measuring undecided mutants cannot detect a slowdown of %s %s in %d samples (%s)",
		len(noisy), n, name, slowdownPercent(need.matters()), need.Budget, strings.Join(names, ", "))
	switch {
	case kind.what == whatCounts:
		return line + ": their instruction counts vary between processes (a map's hash seed, random inputs); raise -max-samples or " + raise
	case kind.what == whatWallTimeBesideCounts:
		return line + ": the machine is too noisy for the mutants measured on wall time (their cost is waiting or contention, which a count does not see); measure them on a quieter machine"
	case kind.known && kind.others < quietShare:
		return line + fmt.Sprintf(": the machine was quiet (other processes used %s of its CPU time), so the noise is the benchmarks' own; longer samples (-sample-time) or more of them (-max-samples) would decide those mutants", sharePercent(kind.others))
	case kind.known:
		return line + fmt.Sprintf(": the machine is too noisy for wall time (other processes used %s of its CPU time); -measure instructions counts instructions, which the load does not change", sharePercent(kind.others))
	}
	return line + ": the machine is too noisy for wall time; -measure instructions counts instructions, which the load does not change"
}

// sharePercent writes a share (0 to 1) in per cent: 0.034 is "3%".
func sharePercent(x float64) string {
	return fmt.Sprintf("%.0f%%", 100*x)
}

// slowdownPercent writes a ratio as the slowdown in per cent: 1.018 is "1.8%".
func slowdownPercent(ratio float64) string {
	return fmt.Sprintf("%.3g%%", 100*(ratio-1))
}

// sampleSpread is how much a benchmark's baseline samples vary between
// themselves: on wall time, mostly the machine's noise.
type sampleSpread struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	// MaxMin is the largest sample over the smallest (1 for constant
	// samples); NaN when a sample is not positive.
	MaxMin float64 `json:"max_min"`
	// CV is the robust coefficient of variation: 1.4826 times the median
	// absolute deviation, over the median (the standard deviation over the
	// mean for normal data, but not moved by a few stalled samples).
	CV       float64  `json:"cv"`
	Warnings []string `json:"warnings,omitempty"`
}

// spreadOf returns the spread of samples. Fewer than 3 samples, or a
// sample that is not positive, give a warning; no samples give NaNs.
func spreadOf(samples []float64) sampleSpread {
	sp := sampleSpread{N: len(samples), Median: math.NaN(), MaxMin: math.NaN(), CV: math.NaN()}
	if len(samples) == 0 {
		sp.Warnings = append(sp.Warnings, "no samples")
		return sp
	}
	s := slices.Sorted(slices.Values(samples))
	sp.Median = medianSorted(s)
	dev := make([]float64, len(s))
	for i, x := range s {
		dev[i] = math.Abs(x - sp.Median)
	}
	slices.Sort(dev)
	if sp.Median != 0 {
		sp.CV = 1.4826 * medianSorted(dev) / math.Abs(sp.Median)
	}
	if s[0] > 0 {
		sp.MaxMin = s[len(s)-1] / s[0]
	} else {
		sp.Warnings = append(sp.Warnings, "a sample is not positive: no max/min")
	}
	if len(s) < 3 {
		sp.Warnings = append(sp.Warnings, "fewer than 3 samples: the spread is a guess")
	}
	return sp
}

// medianSorted is the median of sorted s (not empty).
func medianSorted(s []float64) float64 {
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}
