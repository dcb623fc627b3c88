package score

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/perfmut/perfmut/internal/english"
)

// MarginConfidence is the confidence of a survivor's claim: the chance
// that a mutant whose median per-round ratio is Rule.Margin survives, over
// all the looks together, is at most 1 - MarginConfidence (see
// Rule.survivorRanks).
const MarginConfidence = 0.95

// UpperRatio is the k-th largest of the per-round ratios
// mutant[i]/baseline[i] of a sample measured in rounds (baseline[i] and
// mutant[i] taken back to back, in random order): an upper confidence
// bound of their median, the sign test's, whose confidence depends on k and
// the number of rounds (Rule.survivorRanks chooses k for each look). It
// needs only independent rounds, and a drift shared by a round's two
// samples cancels in their ratio. 0/0 counts as 1, x/0 as unbounded;
// rounds beyond the shorter side are ignored; k below 1 or above the
// rounds gives UnboundedRatio.
func UpperRatio(baseline, mutant []float64, k int) float64 {
	n := min(len(baseline), len(mutant))
	if k < 1 || k > n {
		return UnboundedRatio
	}
	rs := make([]float64, n)
	for i := range rs {
		rs[i] = medianRatio(baseline[i], mutant[i])
	}
	slices.Sort(rs)
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

// ruledOut sets the Upper of each test held to the margin (marginTest:
// every time test, and every count that is not constant without an
// increase) at look (an index into r.Looks()) and reports whether every one
// is below the rule's Margin: the data rule out a median slowdown of
// Margin on every benchmark, and an increase of Margin in every count, so
// the mutant may survive. Upper is the look's survivor rank's largest
// per-round ratio (upperBound), never below the test's median ratio. The
// comparison is strict: on a grid of times a per-round ratio may equal the
// margin exactly (21/20), and a bound equal to the margin does not rule it
// out. With the margin off (negative) it is always true. Otherwise it
// returns the warning saying why not, naming the test with the largest
// bound, and what would decide it (undecidedHint of that test's metric).
func (r Rule) ruledOut(samples []Sample, tests []TestResult, look, n int) (ok bool, warning, hint string) {
	worst, over := -1, 0
	k := r.survivorRanks()[look]
	for i, s := range samples {
		if !marginTest(s) {
			continue
		}
		tests[i].Upper = max(r.upperBound(s, look, k), tests[i].Ratio)
		if r.Margin > 0 && !(tests[i].Upper < r.Margin) {
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
	up := "x" + UpperString(t.Upper, r.Margin)
	if t.Upper == UnboundedRatio {
		up = "unbounded"
	}
	msg := fmt.Sprintf("the ratio could still be %s (upper bound of the median per-round ratio, %g%% over the looks) on %s %s after %d samples; a median slowdown of x%g is not ruled out", up, 100*MarginConfidence, t.Benchmark, t.Metric, n, r.Margin)
	if over > 1 {
		msg += fmt.Sprintf(" (nor on %d other %s)", over-1, english.Choose(over-1, "test", "tests"))
	}
	if k == 0 {
		// No bound at this look's rounds, however quiet the machine.
		return false, msg, fmt.Sprintf("more samples (-max-samples) would decide it: %d rounds cannot rule out a slowdown at %g%%", n, 100*MarginConfidence)
	}
	return false, msg, undecidedHint(t.Metric)
}

// survivorRanks returns, for each look of r.Looks(), the rank k of the
// per-round ratio a survivor's bound is at that look: the k-th largest
// (UpperRatio), 0 for a look at which no mutant survives. The ranks spend
// 1 - MarginConfidence over the looks together: a benchmark whose median
// per-round ratio is the margin has each ratio at or above the margin with
// probability at least 1/2, whatever the distribution, so its chance of
// a bound below the margin at some look is at most survivorCrossing of the
// ranks (exact for continuous ratios), at most 5%. A survivor needs its
// bound below the margin on every benchmark (an intersection-union test),
// so the 5% holds for a mutant of any number of benchmarks and metrics,
// and whatever else stops it (a kill only removes survivals).
//
// Checking an unspent 95% bound afresh at every look (the largest of 5,
// the 2nd of 10, the 6th of 20, the 11th of 30) let such a benchmark
// survive with probability 0.0815. The ranks spend the tail like the kill
// side's union bound: the first look as much as its largest rank allows
// (1/32 at 5 samples, so that a quiet mutant survives at once), the rest
// in equal cumulative shares over the later looks, then what is left, at
// the last look first. With the default looks 5, 10, 20, 30 they are 1, 2,
// 5, 9 (the largest ratio of 5, the 2nd of 10, the 5th of 20, the 9th of
// 30: 0.0438).
func (r Rule) survivorRanks() []int {
	return survivorRanks(r.Looks(), 1-MarginConfidence)
}

// upperBound is the survivor's bound of s at look (an index into
// r.Looks()): UpperRatio with the look's survivor rank k, less one for
// each round of the look that has no ratio (a missing round counts as one
// whose ratio is above the margin, so the bound keeps its confidence).
func (r Rule) upperBound(s Sample, look, k int) float64 {
	if m := min(len(s.Baseline), len(s.Mutant)); m < r.Looks()[look] {
		k -= r.Looks()[look] - m
	}
	return UpperRatio(s.Baseline, s.Mutant, k)
}

// UpperString formats an upper bound x against the margin m with three
// decimals rounded up (a bound is never printed below its value), and as
// many more as it takes, up to nine, for a bound below m not to print as
// m: "1.050" never says that 1.0499 rules out 1.05.
func UpperString(x, m float64) string {
	for d := 3; ; d++ {
		p := math.Pow(10, float64(d))
		up := math.Ceil(x*p-1e-9) / p
		if !(x < m) || up < m || d == 9 {
			return strconv.FormatFloat(up, 'f', d, 64)
		}
	}
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
