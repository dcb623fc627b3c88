package report

import (
	"fmt"
	"math"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Why a covered mutant survived, as survivors are explained.
const (
	whyFaster       = "faster"       // the mutant measured faster
	whyBelowMin     = "below-min"    // slower, but by less than the minimum effect
	whyNoEffect     = "no-effect"    // any slowdown is below what the benchmarks detect
	whyUnderpowered = "underpowered" // a slowdown the benchmarks could detect is not ruled out
	whyUnknown      = ""             // no timing test to judge by
)

// An explanation says why a mutant survived at one level.
type explanation struct {
	Why  string
	Text string // one sentence, without a trailing period
	Hint string // what to do about it, or ""
}

// explain says why m survived at level: it measured faster (some time
// test's bootstrap interval lies below 1 and none lies above); it was slower
// by less than the minimum effect (the timing test with the largest median
// ratio); every timing test's upper bound of its ratio (upperBound: the
// rule's bound of the per-round ratios, else the bootstrap interval's top)
// is at most the slowdown that matters (Report.slowdownBound): no effect
// that matters; or the largest reaches past it, so the data do not rule
// the slowdown out (underpowered, in a report from before the margin or
// without one). The minimum detectable effect (score.MinDetectable) of the
// test named, from its baseline samples, at the per-test share alpha/k of
// the run's alpha (k the tests whose values vary), and at least the
// minimum effect, says how large a slowdown its benchmarks detect at the
// samples taken.
func explain(rep *results.Report, m *results.Mutant, level string) explanation {
	r := m.Results[level]
	if r == nil || r.Status != score.Survived {
		return explanation{}
	}
	best, widest, fastest, k, slower := timingTests(r)
	faster := fastest >= 0 && !slower
	var e explanation
	switch {
	case best < 0:
		e.Why = whyUnknown
	case faster:
		t := r.Benchmarks[fastest]
		e.Why = whyFaster
		e.Text = fmt.Sprintf("the mutant is faster (%s %s on %s): the path it disables is slower than the one it forces", ratioString(t.Ratio), intervalString(t), t.Benchmark)
		e.Hint = "not a benchmark gap: the original code's choice looks slower here; worth a look on its own"
	default:
		e = explainSlowdown(rep, r, r.Benchmarks[best], r.Benchmarks[widest], k)
	}
	// An operator that costs next to nothing uncontended: single-goroutine
	// benchmarks cannot kill it, once they show it costs them nothing.
	if op := m.Op; op != nil && op.Contention == mutate.ContentionOnly && e.Why == whyNoEffect {
		e.Hint = "one goroutine never waits for a lock, and the serial benchmarks show no cost: add a benchmark that runs this code under b.RunParallel"
	}
	return e
}

// timingTests returns the index of r's timing test (a metric that is not
// a count) with the largest median ratio, of the one with the largest
// upper bound of its ratio (upperBound; the best on a tie), and of the
// fastest one whose interval lies below 1 (-1 for none), the number of
// tests whose values vary, and whether some timing test's interval lies
// above 1.
func timingTests(r *results.LevelResult) (best, widest, fastest, varying int, slower bool) {
	best, widest, fastest = -1, -1, -1
	for i, t := range r.Benchmarks {
		if t.PMin < 1 {
			varying++
		}
		if score.IsCount(t.Metric) || t.NBaseline == 0 {
			continue
		}
		if best < 0 || t.Ratio > r.Benchmarks[best].Ratio {
			best = i
		}
		if t.RatioHi > 0 && t.RatioHi < 1 && (fastest < 0 || t.Ratio < r.Benchmarks[fastest].Ratio) {
			fastest = i
		}
		slower = slower || t.RatioLo > 1
	}
	widest = best
	for i, t := range r.Benchmarks {
		if !score.IsCount(t.Metric) && t.NBaseline > 0 && upperBound(t) > upperBound(r.Benchmarks[widest]) {
			widest = i
		}
	}
	return best, widest, fastest, varying, slower
}

// explainSlowdown explains a survivor by its timing tests: below the
// minimum effect (best, the one that measured the largest median ratio),
// no effect that matters (widest, the one with the largest upper bound,
// at most the slowdown that matters), or underpowered (it reaches past
// it), with the effect its benchmarks detect at the samples taken (k tests
// whose values vary share the alpha).
func explainSlowdown(rep *results.Report, r *results.LevelResult, best, widest score.TestResult, k int) explanation {
	rule := rep.Rule()
	if best.BelowMinEffect && best.Ratio > 1 && best.PAdj <= best.Threshold {
		return explanation{Why: whyBelowMin, Text: fmt.Sprintf("slower by less than the minimum effect %s: %s %s on %s", ratioString(rule.MinEffect), ratioString(best.Ratio), intervalString(best), best.Benchmark)}
	}
	t := widest
	mde := math.NaN()
	if base := baselineValues(r, t); len(base) > 0 {
		mde = score.MinDetectable(base, t.NBaseline, rule.Alpha/float64(max(k, 1)), rule.Test)
	}
	if rule.MinEffect > 1 && !(mde >= rule.MinEffect) && !math.IsNaN(mde) {
		mde = rule.MinEffect
	}
	detect := ""
	if !math.IsNaN(mde) {
		detect = fmt.Sprintf(" (with %d samples its benchmarks detect about %s)", t.NBaseline, ratioString(mde))
	}
	bound, hi := slowdownBound(rep), upperBound(t)
	switch {
	case hi == 0:
		return explanation{Why: whyUnknown}
	case hi < bound:
		return explanation{Why: whyNoEffect, Text: fmt.Sprintf("no effect that matters: %s measured %s %s%s, which rules out a median slowdown of %s%s", t.Benchmark, ratioString(t.Ratio), intervalString(t), boundString(t, bound), ratioString(bound), detect)}
	}
	return explanation{Why: whyUnderpowered,
		Text: fmt.Sprintf("underpowered: %s measured %s %s%s, which does not rule out a median slowdown of %s%s", t.Benchmark, ratioString(t.Ratio), intervalString(t), boundString(t, bound), ratioString(bound), detect),
		Hint: "rerun it with more samples (-max-samples 60) or give it a benchmark with less noise"}
}

// slowdownBound is the slowdown that matters: the ratio a survivor's
// upper bound must not exceed for its data to rule the slowdown out (the
// rule's margin, its default for a report from before the margin; with
// the margin off, the minimum effect).
func slowdownBound(r *results.Report) float64 {
	rule := r.Rule()
	if rule.Margin > 0 {
		return rule.Margin
	}
	return max(rule.MinEffect, 1)
}

// upperBound is the upper bound of t's ratio: the rule's bound of the
// per-round ratios (Upper) where it set one, else the top of the
// bootstrap interval of the median ratio (0 for none).
func upperBound(t score.TestResult) float64 {
	if t.Upper > 0 {
		return t.Upper
	}
	return t.RatioHi
}

// boundString says t's upper bound where it is the rule's: ", median
// per-round ratio at most ×1.042 (95%)", or "". It is rounded up, with
// more digits where three would print a bound below the slowdown that
// matters as that slowdown (score.UpperString). The bound is on the
// median round: a slowdown in a few rounds only is not ruled out.
func boundString(t score.TestResult, bound float64) string {
	switch {
	case t.Upper <= 0:
		return ""
	case t.Upper >= score.UnboundedRatio:
		return ", median per-round ratio unbounded (95%)"
	}
	return ", median per-round ratio at most ×" + score.UpperString(t.Upper, bound) + " (95%)"
}

// baselineValues returns the baseline samples of test t.
func baselineValues(r *results.LevelResult, t score.TestResult) []float64 {
	for _, s := range r.Samples {
		if s.Benchmark == t.Benchmark && s.Metric == t.Metric {
			return s.Baseline
		}
	}
	return nil
}

// intervalString is "[lo, hi]" of t's bootstrap interval, or "".
func intervalString(t score.TestResult) string {
	if t.RatioHi == 0 {
		return ""
	}
	return ratioPair(t.RatioLo, t.RatioHi, "[", ", ", "]")
}

// isFaster reports whether f measured faster at every level it survived.
func isFaster(rep *results.Report, f finding) bool {
	for _, l := range f.Levels {
		if explain(rep, f.M, l).Why != whyFaster {
			return false
		}
	}
	return len(f.Levels) > 0
}

// splitFaster separates the survivors that measured faster from the
// benchmark gaps, keeping the order of each.
func splitFaster(rep *results.Report, covered []finding) (gaps, faster []finding) {
	for _, f := range covered {
		if isFaster(rep, f) {
			faster = append(faster, f)
		} else {
			gaps = append(gaps, f)
		}
	}
	return gaps, faster
}

// anyValid reports whether some level has a valid mutant.
func anyValid(rep *results.Report, lv []string) bool {
	for _, l := range lv {
		if levelScore(rep, l).Valid > 0 {
			return true
		}
	}
	return false
}

// scorePct is pct(x), or "-" when there are no valid mutants to score.
func scorePct(x float64, valid int) string {
	if valid == 0 {
		return "-"
	}
	return pct(x)
}

// scoreLegend explains the score table's last column, or says that there
// is nothing to score.
func scoreLegend(rep *results.Report, lv []string) string {
	if !anyValid(rep, lv) {
		return "No valid mutant: every one was excluded (see the statuses), so there is no score."
	}
	return "covered = killed / (killed + survived): the score among the mutants some benchmark ran and decided."
}

// coveredPct is the killed among covered at level (killed / (killed +
// survived)), or "-" when no covered mutant was decided (0 of 0).
func coveredPct(rep *results.Report, level string) string {
	c := statusCounts(rep, level)
	if c[score.Killed]+c[score.Survived] == 0 {
		return "-"
	}
	return pct(levelScore(rep, level).Covered)
}

// undecidedLegend says what the undecided column counts, or "" when no
// level has an undecided mutant.
func undecidedLegend(rep *results.Report, lv []string) string {
	for _, l := range lv {
		if levelScore(rep, l).Undecided > 0 {
			return "undecided = measured to -max-samples without a kill, the data too noisy to rule out a slowdown: outside the score, like equivalent."
		}
	}
	return ""
}

// allKilledLine is the closing line of a report with no findings.
func allKilledLine(rep *results.Report, lv []string) string {
	if !anyValid(rep, lv) {
		return "No valid mutant to kill: every mutant was excluded."
	}
	return "Every valid mutant was killed."
}
