package noise

import (
	"fmt"
	"math"
	"strings"

	"github.com/perfmut/perfmut/score"
)

// Need is what the campaign's verdicts need: the slowdown that matters
// (the margin, else the minimum effect) detected within Budget samples
// each at Level with Test.
type Need struct {
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
func (n Need) matters() float64 {
	if n.Margin > 0 {
		return n.Margin
	}
	return n.MinEffect
}

// mattersName names matters in the advice, with the setting to raise.
func (n Need) mattersName() (name, raise string) {
	if n.Margin > 0 {
		return "the margin", "-margin"
	}
	return "the minimum effect", "the minimum effect"
}

// A Bench is one benchmark's baseline samples.
type Bench struct {
	Name    string
	Samples []float64
}

// A Result is one benchmark's noise against the need.
type Result struct {
	Name   string `json:"name"`
	Spread Spread `json:"spread"`
	// Detectable is the smallest slowdown (a ratio) the benchmark detects
	// with power score.DetectPower at the need's budget, level and test
	// (score.MinDetectable over its samples); NaN when unknown.
	Detectable float64 `json:"detectable"`
	// TooNoisy is whether Detectable is above the slowdown that matters
	// (the need's margin, else its minimum effect): a slowdown a survivor
	// must rule out may go unseen.
	TooNoisy bool `json:"too_noisy"`
}

// Kind is what a Check's samples measure, which decides its advice.
type Kind int

// The kinds of samples.
const (
	// WallTime is a campaign measuring time: the advice is to count
	// instructions.
	WallTime Kind = iota
	// Counts are instruction counts: the advice cannot be to count them.
	Counts
	// WallTimeBesideCounts is the time samples of a campaign that counts
	// the others: these mutants' cost is one a count does not see.
	WallTimeBesideCounts
)

// Check compares each benchmark's noise with the need, and returns the
// results in the order of benches and one line of advice: "" when every
// benchmark whose noise is known can detect the slowdown that matters
// (the need's margin, else its minimum effect). kind says what the
// samples measure.
func Check(benches []Bench, need Need, kind Kind) ([]Result, string) {
	var out []Result
	var noisy []Result
	for _, b := range benches {
		r := Result{Name: b.Name, Spread: spreadOf(b.Samples), Detectable: math.NaN()}
		if len(b.Samples) >= 2 && need.Budget >= 1 {
			r.Detectable = score.MinDetectable(b.Samples, need.Budget, need.Level, need.Test)
		}
		r.TooNoisy = r.Detectable > need.matters()
		if r.TooNoisy {
			noisy = append(noisy, r)
		}
		out = append(out, r)
	}
	return out, advice(noisy, len(benches), need, kind)
}

// maxNamed is how many noisy benchmarks the advice names.
const maxNamed = 3

// advice is Check's line for the noisy benchmarks of n.
func advice(noisy []Result, n int, need Need, kind Kind) string {
	if len(noisy) == 0 {
		return ""
	}
	var names []string
	for _, r := range noisy[:min(len(noisy), maxNamed)] {
		names = append(names, fmt.Sprintf("%s detects %s", r.Name, percent(r.Detectable)))
	}
	if more := len(noisy) - maxNamed; more > 0 {
		names = append(names, fmt.Sprintf("%d more", more))
	}
	name, raise := need.mattersName()
	line := fmt.Sprintf("noise: %d of %d benchmarks cannot detect a slowdown of %s %s in %d samples (%s)",
		len(noisy), n, name, percent(need.matters()), need.Budget, strings.Join(names, ", "))
	switch kind {
	case Counts:
		return line + ": their instruction counts vary between processes (a map's hash seed, random inputs); raise -max-samples or " + raise
	case WallTimeBesideCounts:
		return line + ": the machine is too noisy for the mutants measured on wall time (their cost is waiting or contention, which a count does not see); measure them on a quieter machine"
	}
	return line + ": the machine is too noisy for wall time; -measure instructions counts instructions, which the load does not change"
}

// percent writes a ratio as the slowdown in per cent: 1.018 is "1.8%".
func percent(ratio float64) string {
	return fmt.Sprintf("%.3g%%", 100*(ratio-1))
}
