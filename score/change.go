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
	// correction, and the ratio NEW/OLD is above MinEffect).
	Slower ChangeVerdict = "slower"
	// Faster: OLD is slower than NEW by the same test with the sides
	// swapped.
	Faster ChangeVerdict = "faster"
	// Same: neither test rejects and the interval of the ratio NEW/OLD
	// (PairedRatio) lies within [1/MinEffect, MinEffect] (without a
	// MinEffect: contains 1).
	Same ChangeVerdict = "same"
	// Unsure: neither test rejects, but the interval reaches beyond the
	// band of Same: the samples cannot tell a change from noise.
	Unsure ChangeVerdict = "undecided"
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
	// Ratio is the median of the per-round ratios NEW/OLD, with its 95%
	// interval [RatioLo, RatioHi] (see PairedRatio).
	Ratio, RatioLo, RatioHi float64
	// Forward tests NEW slower than OLD; Reverse tests OLD slower than NEW
	// (its Ratio is OLD/NEW).
	Forward, Reverse TestResult
}

// Test is the test behind the verdict: Reverse for Faster, Forward
// otherwise, except that a Same or Undecided metric whose ratio points to
// NEW being faster shows Reverse.
func (m MetricChange) Test() TestResult {
	if m.Verdict == Faster || m.Verdict != Slower && m.Ratio < 1 && m.Reverse.P < m.Forward.P {
		return m.Reverse
	}
	return m.Forward
}

// DecideChange applies the rule to every sample so far of one benchmark of
// a comparison of two versions of the code: Baseline holds OLD's values,
// Mutant NEW's, one Sample per metric, Baseline[i] and Mutant[i] measured
// in the same round. Each metric is tested in both directions (NEW slower,
// and OLD slower); the 2k tests form one family for the correction, and
// the early-stopping rule (Rule.Decide) runs on it as on a mutant: sampling
// stops at the first look where a test rejects (some metric changed) or
// none can (futility), and always at MaxSamples. Each metric's verdict is
// then Slower or Faster if one of its tests rejected and its ratio
// (PairedRatio) is beyond MinEffect in that direction (counts: any
// ratio), else Same when the interval of that ratio lies within
// [1/MinEffect, MinEffect] (contains 1 without a MinEffect), else
// Undecided. While a metric would be Undecided, the rule goes on to its
// next look (Continue) up to MaxSamples, even after a rejection or a
// futility stop; and a look where every metric is Same stops. The
// verdicts are those of the look that stops.
//
// To keep the false-change rate of a whole comparison of K benchmarks at
// Alpha, call it with Alpha/K (see ForBenchmarks).
func (r Rule) DecideChange(samples []Sample) Change {
	both := make([]Sample, 0, 2*len(samples))
	both = append(both, samples...)
	for _, s := range samples {
		both = append(both, Sample{Benchmark: s.Benchmark + " (reverse)", Metric: s.Metric, Baseline: s.Mutant, Mutant: s.Baseline, Missing: s.Missing})
	}
	r.nonBinding = true // sampling goes on past futility stops
	r.Margin = NoMargin // Same and Unsure are decided below, by the band
	v := r.Decide(both)
	c := Change{Decision: v.Decision, Look: v.Look, Futility: v.Futility, Warnings: v.Warnings}
	k := len(samples)
	if len(v.Tests) != 2*k { // an invalid rule or no samples
		return c
	}
	if v.Decision == Continue && v.Look > 0 {
		// No test rejects at this look: if every metric is already Same,
		// the benchmark is decided.
		c.Decision = Survive
	}
	r = r.WithDefaults()
	n := math.MaxInt
	undecided := false
	for i, s := range samples {
		n = min(n, s.Rounds())
		mc := MetricChange{Metric: s.Metric, Forward: v.Tests[i], Reverse: v.Tests[k+i]}
		mc.Reverse.Benchmark = s.Benchmark
		mc.Ratio, mc.RatioLo, mc.RatioHi = PairedRatio(s.Baseline, s.Mutant)
		if c.Decision != Continue {
			mc.Verdict = mc.verdict(r.MinEffect)
			undecided = undecided || mc.Verdict == Unsure
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

// verdict is the verdict of one metric from its two final tests and its
// ratio: a rejection counts only with the ratio beyond minEffect in the
// test's direction (counts, B/op and allocs/op, are exempt, as in Decide),
// so that a slower metric's NEW/OLD is always above it.
func (m MetricChange) verdict(minEffect float64) ChangeVerdict {
	limit, count := max(minEffect, 1), IsCount(m.Metric)
	switch {
	case m.Forward.Reject && (count || m.Ratio > limit):
		return Slower
	case m.Reverse.Reject && (count || m.Ratio < 1/limit):
		return Faster
	case !m.Forward.Reject && !m.Reverse.Reject && WithinBand(m.RatioLo, m.RatioHi, minEffect):
		return Same
	}
	return Unsure
}

// PairedRatio is the effect size of a comparison measured in rounds, where
// baseline[i] (OLD) and mutant[i] (NEW) were sampled back to back in
// random order: the median of the per-round ratios mutant[i]/baseline[i]
// (0/0 is 1, x/0 unbounded), and its distribution-free 95% interval, the
// order statistics of the sign test: [r(k), r(n+1-k)] of the n sorted
// ratios for the largest k with 2 P(Binomial(n, 1/2) < k) <= 0.05. The
// interval needs only that the rounds are independent; the random order
// within a round makes an A/A ratio's median 1. A machine's load that both
// samples of a round share (another process, a frequency change) cancels
// in their ratio, where the ratio of the two sides' medians and its
// bootstrap interval take it in full. Rounds beyond the shorter side are
// ignored. Below 6 rounds no interval reaches 95%: [0, UnboundedRatio],
// unless every round's ratio is the same (constant counts), which is then
// the interval. Unbounded values are UnboundedRatio, as in TestResult.
func PairedRatio(baseline, mutant []float64) (ratio, lo, hi float64) {
	n := min(len(baseline), len(mutant))
	if n == 0 {
		return 0, 0, 0
	}
	rs := make([]float64, n)
	for i := range rs {
		rs[i] = medianRatio(baseline[i], mutant[i])
	}
	slices.Sort(rs)
	ratio = jsonSafe(median(rs))
	if rs[0] == rs[n-1] {
		return ratio, jsonSafe(rs[0]), jsonSafe(rs[0])
	}
	k := signInterval(n)
	if k == 0 {
		return ratio, 0, UnboundedRatio
	}
	return ratio, jsonSafe(rs[k-1]), jsonSafe(rs[n-k])
}

// signInterval returns the largest k with 2 P(Binomial(n, 1/2) <= k-1) <=
// 0.05: [x(k), x(n+1-k)] of n sorted values covers their median with at
// least 95%. 0 means none does (n < 6).
func signInterval(n int) int {
	lgn, _ := math.Lgamma(float64(n + 1))
	k, cdf := 0, 0.0 // cdf is P(B <= k-1)
	for ; k < n/2; k++ {
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		pmf := math.Exp(lgn - lk - lnk - float64(n)*math.Ln2) // P(B = k)
		if 2*(cdf+pmf) > 0.05 {
			break
		}
		cdf += pmf
	}
	return k
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
