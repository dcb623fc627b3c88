package score

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfmut/perfmut/internal/english"
)

// MarginConfidence is the one-sided confidence of the upper bound a
// survivor's ratios must keep below Rule.Margin (see UpperRatio).
const MarginConfidence = 0.95

// UpperRatio is the one-sided upper confidence bound (MarginConfidence,
// 95%) of the median per-round ratio mutant[i]/baseline[i] of a sample
// measured in rounds (baseline[i] and mutant[i] taken back to back, in
// random order): the order statistic r(n+1-k) of the n sorted ratios for
// the largest k with P(Binomial(n, 1/2) <= k-1) <= 0.05, the sign test's
// bound. It needs only independent rounds, and a drift shared by a
// round's two samples cancels in their ratio. At 5 rounds it is the largest
// of the 5 ratios (1/32 <= 0.05), at 10 the second largest, at 20 the
// sixth, at 30 the eleventh. Below 5 rounds no bound reaches 95%: it is
// UnboundedRatio, even when every round's ratio is the same (one round of
// a custom metric is no evidence against a slowdown). 0/0 counts as 1, x/0 as unbounded;
// rounds beyond the shorter side are ignored; no rounds give
// UnboundedRatio.
func UpperRatio(baseline, mutant []float64) float64 {
	n := min(len(baseline), len(mutant))
	if n == 0 {
		return UnboundedRatio
	}
	rs := make([]float64, n)
	for i := range rs {
		rs[i] = medianRatio(baseline[i], mutant[i])
	}
	slices.Sort(rs)
	k := signBound(n, 1-MarginConfidence)
	if k == 0 {
		return UnboundedRatio
	}
	return jsonSafe(rs[n-k])
}

// signBound returns the largest k with P(Binomial(n, 1/2) <= k-1) <= tail
// (0 when even k = 1 exceeds it): x(n+1-k) of n sorted values is an upper
// bound of their median with confidence at least 1-tail, and x(k) a lower
// one.
func signBound(n int, tail float64) int {
	lgn, _ := math.Lgamma(float64(n + 1))
	k, cdf := 0, 0.0 // cdf is P(B <= k-1)
	for ; k < n; k++ {
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		pmf := math.Exp(lgn - lk - lnk - float64(n)*math.Ln2) // P(B = k)
		if cdf+pmf > tail*(1+1e-12) {
			break
		}
		cdf += pmf
	}
	return k
}

// marginTest reports whether the rule holds a sample to the margin: every
// metric but a count constant on each side and not larger on the
// mutant's (deterministically no increase: its exact values say so). A
// count that varies, or that increased with too few values to be a
// deterministic kill, must rule out the slowdown like a time: a mutant
// whose allocations may have grown is no survivor.
func marginTest(s Sample) bool {
	return !IsCount(s.Metric) || !constantSides(s) || s.Mutant[0] > s.Baseline[0]
}

// ruledOut sets the UpperRatio of each test held to the margin
// (marginTest: every time test, and every count that is not constant
// without an increase) and reports whether every one is at most the margin (the rule's Margin):
// the data rule out a slowdown of Margin on every benchmark, and an
// increase of Margin in every count, so the mutant may survive. With the margin off (negative)
// it is always true. Otherwise it returns the warning saying why not,
// naming the test with the largest bound, and what would decide it
// (undecidedHint of that test's metric).
func ruledOut(margin float64, samples []Sample, tests []TestResult, n int) (ok bool, warning, hint string) {
	worst, over := -1, 0
	for i, s := range samples {
		if !marginTest(s) {
			continue
		}
		tests[i].Upper = UpperRatio(s.Baseline, s.Mutant)
		if margin > 0 && !(tests[i].Upper <= margin) {
			over++
			if worst < 0 || tests[i].Upper > tests[worst].Upper {
				worst = i
			}
		}
	}
	if over == 0 {
		return true, "", ""
	}
	t := tests[worst]
	up := fmt.Sprintf("x%.3g", t.Upper)
	if t.Upper == UnboundedRatio {
		up = "unbounded"
	}
	msg := fmt.Sprintf("the ratio could still be %s (%g%% upper bound of the per-round ratios) on %s %s after %d samples; a slowdown of x%g is not ruled out", up, 100*MarginConfidence, t.Benchmark, t.Metric, n, margin)
	if over > 1 {
		msg += fmt.Sprintf(" (nor on %d other %s)", over-1, english.Choose(over-1, "test", "tests"))
	}
	return false, msg, undecidedHint(t.Metric)
}

// undecidedHint says what would decide an undecided mutant whose largest
// bound is on metric: more samples always; for a time (or a custom unit) a
// quieter machine or longer samples too, which narrow its spread. They do
// not change a count or an instruction count, whose spread is the
// program's own (a map's random seed, say): the hint does not name them.
func undecidedHint(metric string) string {
	if IsCount(metric) || metric == InstructionsPerOp {
		return countHint
	}
	return timeHint
}

// The hints of undecidedHint.
const (
	timeHint  = "more samples (-max-samples), a quieter machine or longer samples (-benchtime) would decide it"
	countHint = "more samples (-max-samples) would decide it"
)

// UndecidedPrefix begins the warning that carries an undecided mutant's
// reason (Verdict.Reason) among its verdict's warnings.
const UndecidedPrefix = "undecided: "
