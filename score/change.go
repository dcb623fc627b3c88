package score

import (
	"math"
	"slices"
)

// A ChangeVerdict is what a comparison of two versions of the code says
// about one benchmark and metric.
type ChangeVerdict string

// The change verdicts.
const (
	// Slower: NEW is slower than OLD (the one-sided test rejects, after the
	// correction, and the median ratio NEW/OLD is above MinEffect).
	Slower ChangeVerdict = "slower"
	// Faster: OLD is slower than NEW by the same test with the sides
	// swapped.
	Faster ChangeVerdict = "faster"
	// Same: neither test rejects and the interval of the median ratio lies
	// within [1/MinEffect, MinEffect] (without a MinEffect: contains 1).
	Same ChangeVerdict = "same"
	// Undecided: neither test rejects, but the interval reaches beyond the
	// band of Same: the samples cannot tell a change from noise.
	Undecided ChangeVerdict = "undecided"
)

// A Change is the rule's decision on one benchmark of a comparison.
type Change struct {
	Decision Decision // Continue, or done (Kill: some metric changed; Survive: none did)
	Look     int      // as Verdict.Look
	Futility bool
	// Metrics has one result per Sample given, in order.
	Metrics  []MetricChange
	Warnings []string
}

// A MetricChange is the verdict on one metric of a benchmark.
type MetricChange struct {
	Metric  string
	Verdict ChangeVerdict // "" while Decision is Continue
	// Forward tests NEW slower than OLD; Reverse tests OLD slower than NEW
	// (its Ratio is OLD/NEW).
	Forward, Reverse TestResult
}

// Test is the test behind the verdict: Reverse for Faster, Forward
// otherwise, except that a Same or Undecided metric whose median ratio
// points to NEW being faster shows Reverse.
func (m MetricChange) Test() TestResult {
	if m.Verdict == Faster || m.Verdict != Slower && m.Forward.Ratio < 1 && m.Reverse.P < m.Forward.P {
		return m.Reverse
	}
	return m.Forward
}

// DecideChange applies the rule to every sample so far of one benchmark of
// a comparison of two versions of the code: Baseline holds OLD's values,
// Mutant NEW's, one Sample per metric. Each metric is tested in both
// directions (NEW slower, and OLD slower); the 2k tests form one family
// for the correction, and the early-stopping rule (Rule.Decide) runs on it
// as on a mutant: sampling stops at the first look where a test rejects
// (some metric changed) or none can (futility), and always at MaxSamples.
// Each metric's verdict is then Slower or Faster if one of its tests
// rejected, else Same when the bootstrap interval of its median ratio
// NEW/OLD lies within [1/MinEffect, MinEffect] (contains 1 without a
// MinEffect), else Undecided. While a metric would be Undecided, the rule
// goes on to its next look (Continue) up to MaxSamples, even after a
// rejection or a futility stop; and a look where every metric is Same
// stops. The verdicts are those of the look that stops.
//
// To keep the false-change rate of a whole comparison of K benchmarks at
// Alpha, call it with Alpha/K (see ForBenchmarks).
func (r Rule) DecideChange(samples []Sample) Change {
	both := make([]Sample, 0, 2*len(samples))
	both = append(both, samples...)
	for _, s := range samples {
		both = append(both, Sample{Benchmark: s.Benchmark + " (reverse)", Metric: s.Metric, Baseline: s.Mutant, Mutant: s.Baseline})
	}
	r.nonBinding = true // sampling goes on past futility stops
	v := r.Decide(both)
	c := Change{Decision: v.Decision, Look: v.Look, Futility: v.Futility, Warnings: v.Warnings}
	k := len(samples)
	if len(v.Tests) != 2*k { // an invalid rule or no samples
		return c
	}
	if v.Decision == Continue && v.Look > 0 {
		// No test rejects at this look: if every interval already lies in
		// the band of Same, the benchmark is decided.
		for i, s := range samples {
			v.Tests[i].addInterval(s, testSeed(r.Seed, s.Benchmark, s.Metric))
		}
		c.Decision = Survive
	}
	r = r.WithDefaults()
	n := math.MaxInt
	undecided := false
	for i, s := range samples {
		n = min(n, len(s.Baseline), len(s.Mutant))
		mc := MetricChange{Metric: s.Metric, Forward: v.Tests[i], Reverse: v.Tests[k+i]}
		mc.Reverse.Benchmark = s.Benchmark
		if c.Decision != Continue {
			mc.Verdict = changeVerdict(mc.Forward, mc.Reverse, r.MinEffect)
			undecided = undecided || mc.Verdict == Undecided
		}
		c.Metrics = append(c.Metrics, mc)
	}
	if undecided && n < r.MaxSamples {
		// Sampling goes on while a metric is undecided: a change found in
		// one metric (fewer allocations) must not end the search for one
		// in another (more time), nor futility a precise Same. The looks
		// spend their shares of Alpha whether or not they stop, so going
		// on keeps the false-change rate.
		c.Decision, c.Futility = Continue, false
		for i := range c.Metrics {
			c.Metrics[i].Verdict = ""
		}
	}
	return c
}

// changeVerdict is the verdict of one metric from its two final tests.
func changeVerdict(fwd, rev TestResult, minEffect float64) ChangeVerdict {
	switch {
	case fwd.Reject:
		return Slower
	case rev.Reject:
		return Faster
	}
	if WithinBand(fwd.RatioLo, fwd.RatioHi, minEffect) {
		return Same
	}
	return Undecided
}

// WithinBand reports whether an interval [lo, hi] of a median ratio lies
// within the band of Same: [1/minEffect, minEffect], or contains 1 without
// a minimum effect (minEffect <= 1). No interval (0, 0) is not.
func WithinBand(lo, hi, minEffect float64) bool {
	switch {
	case lo == 0 && hi == 0:
		return false
	case minEffect > 1:
		return lo >= 1/minEffect && hi <= minEffect
	}
	return lo <= 1 && hi >= 1
}

// ForBenchmarks returns the rule each of k benchmarks of one comparison
// is decided with: Alpha/k (Bonferroni over the benchmarks, which are
// decided and stopped separately), and, unless minSamples fixes it, the
// first look recomputed for that level. Validate the result: a small
// MaxSamples may not reach Alpha/k.
func (r Rule) ForBenchmarks(k, minSamples int) Rule {
	r = r.WithDefaults()
	r.Alpha /= float64(max(k, 1))
	r.MinSamples = minSamples
	return r.WithDefaults()
}

// Exceeds reports whether a ratio NEW/OLD is a slowdown beyond max (a
// fraction: 0.05 is 5%); an unbounded ratio exceeds any.
func Exceeds(ratio, max float64) bool {
	return ratio == UnboundedRatio || !math.IsNaN(ratio) && ratio > 1+max
}

// Median is the median of xs, in any order (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return median(s)
}
