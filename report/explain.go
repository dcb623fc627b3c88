package report

import (
	"fmt"
	"math"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
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

// rule returns the kill rule of the report's settings (a minimum effect of
// 0, from reports before it had a default, was off).
func (r *Report) rule() score.Rule {
	s := r.Settings
	if s.MinEffect == 0 {
		s.MinEffect = 1
	}
	return score.Rule{
		Alpha: s.Alpha, Correction: score.Correction(s.Correction), Test: score.Test(s.Test),
		MaxSamples: s.MaxSamples, MinSamples: s.MinSamples, MinEffect: s.MinEffect, FutilityPower: s.FutilityPower,
	}.WithDefaults()
}

// explain says why m survived at level: it measured faster (some time
// test's bootstrap interval lies below 1 and none lies above); it was slower
// by less than the minimum effect; its effect is below the minimum
// detectable effect of its benchmarks at the samples taken (no effect
// they can see); or a detectable effect is not ruled out (underpowered).
// The minimum detectable effect (score.MinDetectable) is that of the
// timing test with the largest median ratio, from its baseline samples, at
// the per-test share alpha/k of the run's alpha (k the tests whose values
// vary), and at least the minimum effect.
func explain(rep *Report, m *Mutant, level string) explanation {
	r := m.Results[level]
	if r == nil || r.Status != score.Survived {
		return explanation{}
	}
	var e explanation
	best, fastest := -1, -1
	slower := false
	k := 0
	for i, t := range r.Benchmarks {
		if t.PMin < 1 {
			k++
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
	faster := fastest >= 0 && !slower
	rule := rep.rule()
	switch {
	case best < 0:
		e.Why = whyUnknown
	case faster:
		t := r.Benchmarks[fastest]
		e.Why = whyFaster
		e.Text = fmt.Sprintf("the mutant is faster (%s %s on %s): the path it disables is slower than the one it forces", ratioString(t.Ratio), intervalString(t), t.Benchmark)
		e.Hint = "not a benchmark gap: the original code's choice looks slower here; worth a look on its own"
	default:
		t := r.Benchmarks[best]
		mde := math.NaN()
		if base := baselineValues(r, t); len(base) > 0 {
			mde = score.MinDetectable(base, t.NBaseline, rule.Alpha/float64(max(k, 1)), rule.Test)
		}
		if rule.MinEffect > 1 && !(mde >= rule.MinEffect) && !math.IsNaN(mde) {
			mde = rule.MinEffect
		}
		switch {
		case t.BelowMinEffect && t.Ratio > 1 && t.PAdj <= t.Threshold:
			e.Why = whyBelowMin
			e.Text = fmt.Sprintf("slower by less than the minimum effect %s: %s %s on %s", ratioString(rule.MinEffect), ratioString(t.Ratio), intervalString(t), t.Benchmark)
		case math.IsNaN(mde):
			e.Why = whyUnknown
		case t.RatioHi > 0 && t.RatioHi < mde:
			e.Why = whyNoEffect
			e.Text = fmt.Sprintf("no effect its benchmarks can see: with %d samples they detect about %s, and %s measured %s %s", t.NBaseline, ratioString(mde), t.Benchmark, ratioString(t.Ratio), intervalString(t))
		default:
			e.Why = whyUnderpowered
			e.Text = fmt.Sprintf("underpowered: with %d samples its benchmarks detect about %s, and %s measured %s %s, which does not rule that out", t.NBaseline, ratioString(mde), t.Benchmark, ratioString(t.Ratio), intervalString(t))
			e.Hint = "rerun it with more samples (-futility 0, -max-samples 60) or give it a benchmark with less noise"
		}
	}
	// An operator that costs next to nothing uncontended: single-goroutine
	// benchmarks cannot kill it.
	if op := operators.ByName(m.Operator); op != nil && op.Contention == mutate.ContentionOnly && e.Why != whyFaster {
		e.Hint = "one goroutine never waits for a lock: add a benchmark that runs this code under b.RunParallel"
	}
	return e
}

// baselineValues returns the baseline samples of test t.
func baselineValues(r *LevelResult, t score.TestResult) []float64 {
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
	return "[" + ratioString(t.RatioLo) + ", " + ratioString(t.RatioHi) + "]"
}

// isFaster reports whether f measured faster at every level it survived.
func isFaster(rep *Report, f finding) bool {
	for _, l := range f.Levels {
		if explain(rep, f.M, l).Why != whyFaster {
			return false
		}
	}
	return len(f.Levels) > 0
}

// splitFaster separates the survivors that measured faster from the
// benchmark gaps, keeping the order of each.
func splitFaster(rep *Report, covered []finding) (gaps, faster []finding) {
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
func anyValid(rep *Report, lv []string) bool {
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
func scoreLegend(rep *Report, lv []string) string {
	if !anyValid(rep, lv) {
		return "No valid mutant: every one was excluded (see the statuses), so there is no score."
	}
	return "covered = killed / (killed + survived): the score among the mutants some benchmark runs."
}

// allKilledLine is the closing line of a report with no findings.
func allKilledLine(rep *Report, lv []string) string {
	if !anyValid(rep, lv) {
		return "No valid mutant to kill: every mutant was excluded."
	}
	return "Every valid mutant was killed."
}
