package score

import (
	"fmt"
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
// in the same round (in random order). Each metric is tested in both
// directions (NEW slower, and OLD slower) by the paired test of the
// per-round ratios (SignedRank), so that a drift shared by a round's two
// samples cancels; the 2k tests form one family for the correction, with
// Tarone's reduction at each look (a test whose rounds cannot reach the
// look's level, e.g. a count equal on both sides, is left out). The looks
// are Rule.Looks from MinSameSamples rounds on (the first at which Same can
// be said) and MaxSamples; alpha is shared over them by the union bound,
// half at the first and the rest equally (pairedLevels), which holds for
// any test. Each metric's verdict is Slower or Faster if one of its tests
// rejected and its ratio (PairedRatio) is beyond MinEffect in that
// direction (counts: any ratio; a count constant on each side and
// different changed whatever its p-value, see Decide), else Same when the
// interval of that ratio lies within [1/MinEffect, MinEffect] (contains 1
// without a MinEffect), else Unsure. While a metric is Unsure, the rule goes on to
// its next look (Continue) up to MaxSamples; otherwise the benchmark is
// decided at the look: Kill when some metric changed, Survive when none
// did. The looks spend their shares of Alpha whether or not they stop, so
// going on keeps the false-change rate.
//
// To keep the false-change rate of a whole comparison of K benchmarks at
// Alpha, call it with Alpha/K (see ForBenchmarks).
func (r Rule) DecideChange(samples []Sample) Change {
	if err := r.Validate(); err != nil {
		return Change{Decision: Survive, Warnings: []string{"invalid rule: " + err.Error()}}
	}
	if len(samples) == 0 {
		return Change{Decision: Survive, Warnings: []string{"no benchmark samples: nothing changed"}}
	}
	r = r.WithDefaults()
	k, n := len(samples), math.MaxInt
	tests := make([]TestResult, 2*k)
	ps, pmins := make([]float64, 2*k), make([]float64, 2*k)
	for i, s := range samples {
		n = min(n, s.Rounds())
		tests[i] = pairedTest(s, s.Baseline, s.Mutant)
		tests[k+i] = pairedTest(s, s.Mutant, s.Baseline)
	}
	for i := range tests {
		ps[i], pmins[i] = tests[i].P, tests[i].PMin
	}
	c := Change{Decision: Continue, Look: r.pairedLookAt(n) + 1}
	if c.Look > 0 {
		r.pairedReject(tests, ps, pmins, c.Look-1)
	} else {
		for i, p := range Adjust(ps, r.Correction) {
			tests[i].PAdj = p
		}
	}
	unsure := false
	for i, s := range samples {
		mc := MetricChange{Metric: s.Metric, Forward: tests[i], Reverse: tests[k+i]}
		mc.Ratio, mc.RatioLo, mc.RatioHi = PairedRatio(s.Baseline, s.Mutant)
		mc.Forward.BelowMinEffect = !IsCount(s.Metric) && !(mc.Ratio > max(r.MinEffect, 1))
		mc.Reverse.BelowMinEffect = !IsCount(s.Metric) && !(mc.Ratio < 1/max(r.MinEffect, 1))
		// A count constant on each side and different is a real change
		// (as in Decide), whatever its p-value.
		mc.Forward.Deterministic = r.deterministicIncrease(s)
		mc.Reverse.Deterministic = r.deterministicIncrease(Sample{Metric: s.Metric, Baseline: s.Mutant, Mutant: s.Baseline})
		mc.Forward.Reject = mc.Forward.Deterministic || mc.Forward.Reject && !mc.Forward.BelowMinEffect
		mc.Reverse.Reject = mc.Reverse.Deterministic || mc.Reverse.Reject && !mc.Reverse.BelowMinEffect
		if c.Look > 0 {
			mc.Verdict = mc.verdict(r.MinEffect)
			unsure = unsure || mc.Verdict == Unsure
			if mc.Verdict == Slower || mc.Verdict == Faster {
				c.Decision = Kill
			}
		}
		c.Metrics = append(c.Metrics, mc)
	}
	switch {
	case c.Look == 0:
	case unsure && n < r.MaxSamples:
		// Sampling goes on while a metric is undecided: a change found in
		// one metric (fewer allocations) must not end the search for one
		// in another (more time).
		c.Decision = Continue
		for i := range c.Metrics {
			c.Metrics[i].Verdict = ""
		}
	case c.Decision != Kill:
		c.Decision = Survive
	}
	return c
}

// pairedTest is SignedRank of new against old as a TestResult: D the
// statistic, P, the smallest reachable p-value PMin (2^-n of the n rounds
// whose ratio is not 1), the median per-round ratio new/old and the
// sample sizes; PAdj is P until pairedReject sets it.
func pairedTest(s Sample, old, new []float64) TestResult {
	t := TestResult{Benchmark: s.Benchmark, Metric: s.Metric, NBaseline: len(old), NMutant: len(new)}
	t.D, t.P, _ = SignedRank(old, new)
	t.PAdj, t.PMin = t.P, signedRankMin(old, new)
	t.Ratio, _, _ = PairedRatio(old, new)
	if len(s.Missing) > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("no value in %d of %d rounds: tested on the values of the others", len(s.Missing), s.Rounds()))
	}
	return t
}

// pairedReject sets the tests' PAdj, Excluded, Threshold and Reject
// (before the minimum effect) at a look (an index into pairedLooks):
// Tarone's reduction with the per-test level pairedLevels()[look]/K, then
// the Correction over the family; a test rejects when its adjusted p-value
// is at most the family's size times that level.
func (r Rule) pairedReject(tests []TestResult, ps, pmins []float64, look int) {
	share := r.pairedLevels()[look]
	in := make([]bool, len(tests))
	level := share
	if r.Correction == None {
		for i := range in {
			in[i] = true
		}
	} else {
		var kf int
		kf, in = reduceFamily(pmins, func(k int) float64 { return share / float64(k) })
		level = share / float64(kf)
	}
	threshold := level
	if f := count(in); r.Correction != None && f > 1 {
		threshold = level * float64(f)
	}
	adj := adjustIn(ps, in, r.Correction)
	for i := range tests {
		t := &tests[i]
		t.PAdj, t.Excluded, t.Threshold = adj[i], !in[i], threshold
		t.Reject = in[i] && t.PAdj <= threshold
	}
}

// pairedLooks are the looks of DecideChange: those of Rule.Looks from
// MinSameSamples rounds on, and always MaxSamples.
func (r Rule) pairedLooks() []int {
	var ns []int
	for _, n := range r.Looks() {
		if n >= MinSameSamples() || n == r.MaxSamples {
			ns = append(ns, n)
		}
	}
	return ns
}

// pairedLevels shares Alpha over pairedLooks by the union bound: half at
// the first, the rest equally over the others (all of it with one look).
func (r Rule) pairedLevels() []float64 {
	looks := r.pairedLooks()
	levels := make([]float64, len(looks))
	for k := range looks {
		switch {
		case len(looks) == 1:
			levels[k] = r.Alpha
		case k == 0:
			levels[k] = r.Alpha / 2
		default:
			levels[k] = r.Alpha / 2 / float64(len(looks)-1)
		}
	}
	return levels
}

// pairedLookAt is lookAt for pairedLooks: the index of the look taken at
// n rounds (the last at MaxSamples or beyond), or -1 between looks.
func (r Rule) pairedLookAt(n int) int {
	looks := r.pairedLooks()
	for k, nk := range looks {
		if nk == n || n >= r.MaxSamples && k == len(looks)-1 {
			return k
		}
	}
	return -1
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
