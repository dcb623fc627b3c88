package score

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
)

// A Sample is every sample so far of one benchmark and metric of a mutant:
// the baseline's and the mutant's values, in the order they were measured.
type Sample struct {
	Benchmark string
	Metric    string
	Baseline  []float64
	Mutant    []float64
}

// A Decision is what the early-stopping rule says after a round.
type Decision string

// The decisions.
const (
	Continue Decision = "continue" // take another round of samples
	Kill     Decision = "kill"     // a test rejected: the mutant is killed
	Survive  Decision = "survive"  // the last look did not kill: the mutant survived
)

// A Verdict is the rule's decision with the tests behind it.
type Verdict struct {
	Decision Decision
	// Tests has one result per Sample, in the order given, on all the data
	// so far. Reject and Threshold are set only at a look, and the bootstrap
	// interval of the median ratio (RatioLo, RatioHi) only with a Kill or
	// Survive decision: it is the costly part and only final verdicts are
	// recorded.
	Tests []TestResult
	// Look is the 1-based index into Rule.Looks of the look this call made,
	// or 0 between looks.
	Look int
	// Futility is set when the look stopped the mutant as survived before
	// MaxSamples because no test could plausibly reach its level (see
	// Rule.FutilityPower).
	Futility bool
	Warnings []string
}

// Decide applies the rule to all samples so far of one mutant (one Sample
// per benchmark and metric that reaches it). The runner calls it after every
// round; it never stores state, so it must see every look count of
// Rule.Looks: the look happens when the fewest samples of any benchmark
// (baseline or mutant) equals a look count, and at MaxSamples or beyond it
// always returns Kill or Survive, never Continue. Between looks it returns
// Continue, with the tests computed on the data so far for display (PAdj
// then is Correction over all the tests, without Tarone's reduction).
//
// At look k the family is reduced first (Tarone; AdjustFamily): a test whose
// smallest reachable p-value given its pooled values (ReachableP) cannot
// reach its share of alpha_k is left out of the correction and marked
// Excluded, with a warning. Each remaining test's adjusted p-value
// (Correction over the family) is compared with the look's share alpha_k of
// Alpha (see Rule); the test rejects when it is at most alpha_k and, with
// MinEffect, its median ratio exceeds MinEffect. The mutant is killed when
// any test rejects.
//
// Otherwise, at a look before the last, it survives early (futility) when
// every test has a conditional power below FutilityPower:
// the chance, if the effect goes on as observed (the p-value read as a
// z-score), of reaching the last look's level (shared over the tests whose
// values are not all equal) at MaxSamples.
//
// Samples of unequal length are tested on all their values. Decide assumes
// r.Validate() == nil; for an invalid rule it returns Survive with the error
// as a warning, and with no samples at all it returns Survive (nothing can
// kill the mutant).
func (r Rule) Decide(samples []Sample) Verdict { return r.decide(samples, true) }

// decide is Decide, with the bootstrap intervals only when interval is set
// (they do not enter the decision; simulations skip them).
func (r Rule) decide(samples []Sample, interval bool) Verdict {
	if err := r.Validate(); err != nil {
		return Verdict{Decision: Survive, Warnings: []string{"invalid rule: " + err.Error()}}
	}
	r = r.WithDefaults()
	if len(samples) == 0 {
		return Verdict{Decision: Survive, Warnings: []string{"no benchmark samples: nothing can kill the mutant"}}
	}
	n := math.MaxInt
	tests := make([]TestResult, len(samples))
	ps, pmins := make([]float64, len(samples)), make([]float64, len(samples))
	for i, s := range samples {
		n = min(n, len(s.Baseline), len(s.Mutant))
		tests[i] = comparePoint(s)
		ps[i] = tests[i].P
		pmins[i] = ReachableP(s.Baseline, s.Mutant)
		tests[i].PMin = pmins[i]
	}
	v := Verdict{Decision: Continue, Tests: tests}
	looks, levels := r.Looks(), r.levels()
	final := n >= r.MaxSamples
	for k, nk := range looks {
		if nk == n || final && k == len(looks)-1 {
			v.Look = k + 1
		}
	}
	if v.Look == 0 {
		for i, p := range Adjust(ps, r.Correction) {
			tests[i].PAdj = p
		}
		return v
	}
	level := levels[v.Look-1]
	adj, in := AdjustFamily(ps, pmins, level, r.Correction)
	family := 0
	for i := range tests {
		tests[i].PAdj = adj[i]
		tests[i].Excluded = !in[i]
		if in[i] {
			family++
		}
	}
	for i := range tests {
		t := &tests[i]
		t.Threshold = level
		t.BelowMinEffect = r.MinEffect > 0 && !(t.Ratio > r.MinEffect)
		t.Reject = t.PAdj <= level && !t.BelowMinEffect
		if t.Reject {
			v.Decision = Kill
		}
		if t.Excluded {
			t.Warnings = append(t.Warnings, fmt.Sprintf("cannot reject: the smallest p-value any split of these %d and %d values gives is %.3g (%s), above this look's level %.3g; left out of the %s correction (Tarone)", t.NBaseline, t.NMutant, t.PMin, tieNote(samples[i]), level, r.Correction))
		} else if t.PMin > level {
			t.Warnings = append(t.Warnings, fmt.Sprintf("cannot reject: the smallest p-value any split of these %d and %d values gives is %.3g, above this look's level %.3g", t.NBaseline, t.NMutant, t.PMin, level))
		}
	}
	if family == 0 {
		v.Warnings = append(v.Warnings, fmt.Sprintf("look %d (%d samples) cannot kill: no test can reach the level %.3g with these values", v.Look, n, level))
	}
	switch {
	case v.Decision == Continue && final:
		v.Decision = Survive
	case v.Decision == Continue && r.FutilityPower > 0:
		if cp, futile := r.futile(tests, n); futile {
			v.Decision = Survive
			v.Futility = true
			v.Warnings = append(v.Warnings, fmt.Sprintf("stopped early for futility at look %d (%d samples): the largest conditional power to reject by %d samples is %.2g, below %.2g", v.Look, n, r.MaxSamples, cp, r.FutilityPower))
		}
	}
	if v.Decision != Continue && interval {
		for i, s := range samples {
			tests[i].addInterval(s, testSeed(r.Seed, s.Benchmark, s.Metric))
		}
	}
	return v
}

// futile reports whether every test has a conditional power below
// r.FutilityPower to reject at the last look after n of r.MaxSamples
// samples, and the largest conditional power. The last look's level is
// shared (with a correction) over the tests whose pooled values are not all
// equal: Tarone's family at this look is no guide to the last one, where
// more samples make smaller p-values reachable. A test whose values are
// all equal has p = 1 and no power.
func (r Rule) futile(tests []TestResult, n int) (float64, bool) {
	levels := r.levels()
	last := levels[len(levels)-1]
	if r.Correction != None {
		k := 0
		for _, test := range tests {
			if test.PMin < 1 {
				k++
			}
		}
		last /= float64(max(k, 1))
	}
	t := float64(n) / float64(r.MaxSamples)
	best := 0.0
	for _, test := range tests {
		best = max(best, conditionalPower(test.P, t, last))
	}
	return best, best < r.FutilityPower
}

// tieNote describes why a test's smallest reachable p-value is large.
func tieNote(s Sample) string {
	first := math.NaN()
	for _, xs := range [][]float64{s.Baseline, s.Mutant} {
		for _, x := range xs {
			if math.IsNaN(first) {
				first = x
			} else if x != first {
				return "ties among the pooled values"
			}
		}
	}
	return fmt.Sprintf("every value is %v", first)
}

// comparePoint runs the one-sided KS test and the effect size of one
// Sample, without the bootstrap interval (addInterval adds it): D, P, the
// median ratio and the sample sizes. PAdj is P (a family of one); Reject is
// false. Ratios that do not fit JSON (a baseline median of 0) are recorded
// as +-UnboundedRatio, or 0 for no ratio at all, with a warning.
func comparePoint(s Sample) TestResult {
	t := TestResult{
		Benchmark: s.Benchmark,
		Metric:    s.Metric,
		NBaseline: len(s.Baseline),
		NMutant:   len(s.Mutant),
	}
	t.D, t.P = OneSidedKS(s.Baseline, s.Mutant)
	t.PAdj = t.P
	if t.NBaseline == 0 || t.NMutant == 0 {
		t.Warnings = append(t.Warnings, "no samples")
		return t
	}
	x, y := slices.Clone(s.Baseline), slices.Clone(s.Mutant)
	slices.Sort(x)
	slices.Sort(y)
	t.Ratio = medianRatio(median(x), median(y))
	if math.IsInf(t.Ratio, 0) {
		t.Warnings = append(t.Warnings, "baseline median is 0: the median ratio is unbounded")
	}
	t.Ratio = jsonSafe(t.Ratio)
	return t
}

// addInterval sets the bootstrap interval of the median ratio.
func (t *TestResult) addInterval(s Sample, seed int64) {
	if t.NBaseline == 0 || t.NMutant == 0 {
		return
	}
	_, lo, hi := MedianRatio(s.Baseline, s.Mutant, seed)
	if (math.IsInf(lo, 0) || math.IsInf(hi, 0)) && math.Abs(t.Ratio) != UnboundedRatio {
		t.Warnings = append(t.Warnings, "baseline median is 0 in some bootstrap resamples: the interval is unbounded")
	}
	t.RatioLo, t.RatioHi = jsonSafe(lo), jsonSafe(hi)
}

// UnboundedRatio is the Ratio, RatioLo or RatioHi recorded for an
// unbounded median ratio (a baseline median of 0, e.g. 0 allocs/op, against
// a positive mutant median): JSON has no infinity. Renderers should show it
// as "inf"; it exceeds any MinEffect.
const UnboundedRatio = math.MaxFloat64

// jsonSafe maps +-Inf to +-UnboundedRatio and NaN to 0: encoding/json
// rejects both.
func jsonSafe(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case math.IsInf(x, 1):
		return UnboundedRatio
	case math.IsInf(x, -1):
		return -UnboundedRatio
	}
	return x
}

// testSeed derives the bootstrap seed of one test from the rule's seed and
// the test's name, so each test's interval is reproducible on its own.
func testSeed(seed int64, benchmark, metric string) int64 {
	h := fnv.New64a()
	h.Write([]byte(benchmark))
	h.Write([]byte{0})
	h.Write([]byte(metric))
	return seed ^ int64(h.Sum64())
}
