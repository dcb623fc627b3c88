package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// trialName is a trial kind as the calibration table names it.
func trialName(kind string) string {
	switch kind {
	case results.TrialSelf:
		return "baseline vs itself"
	case results.TrialNull:
		return "baseline vs null mutant"
	}
	return kind
}

// A CalibrationRow is the outcome of one kind of trial at one level.
type CalibrationRow struct {
	Level, Kind string
	Killed, N   int            // false kills among measured trials (killed + survived)
	Unmeasured  map[string]int // trials not measured, by status (no-coverage, compile-error, ...)
	Lo, Hi      float64        // exact 95% interval of the rate (score.ClopperPearson)
}

// Rate is the false-kill rate, 0 when no trial was measured.
func (r CalibrationRow) Rate() float64 {
	if r.N == 0 {
		return 0
	}
	return float64(r.Killed) / float64(r.N)
}

// TallyCalibration counts the false kills of a calibration's report per
// level and kind, with their exact 95% intervals.
func TallyCalibration(rep *results.Report, levels, kinds []string) []CalibrationRow {
	var rows []CalibrationRow
	for _, l := range levels {
		for _, k := range kinds {
			row := CalibrationRow{Level: l, Kind: k, Unmeasured: map[string]int{}}
			for _, m := range rep.Mutants {
				r := m.Results[l]
				if m.Operator != k || r == nil {
					continue
				}
				switch r.Status {
				case score.Killed:
					row.Killed++
					row.N++
				case score.Survived, score.Undecided: // measured, not killed
					row.N++
				default:
					row.Unmeasured[string(r.Status)]++
				}
			}
			row.Lo, row.Hi = score.ClopperPearson(row.Killed, row.N, 0.95)
			rows = append(rows, row)
		}
	}
	return rows
}

// WriteCalibration prints the calibration table and the warnings: a rate
// whose whole interval lies above alpha says the machine is too noisy for
// the settings; a rate above alpha whose interval still includes it asks
// for more trials.
func WriteCalibration(w io.Writer, rep *results.Report, rows []CalibrationRow, alpha float64) {
	fmt.Fprintf(w, "A/A calibration of %s: %s\n", rep.Module, settingsLine(rep))
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-6s  %-23s  %6s  %11s  %6s  %-17s  %5s\n", "level", "comparison", "trials", "false kills", "rate", "95% interval", "alpha")
	var significant, above []string
	nullSignificant := false
	for _, r := range rows {
		writeCalibrationRow(w, r, alpha)
		if r.N == 0 || r.Rate() <= alpha {
			continue
		}
		line := fmt.Sprintf("%s, %s: %d of %d trials killed (%.1f%%, 95%% interval %.1f%%-%.1f%%), alpha %g",
			r.Level, trialName(r.Kind), r.Killed, r.N, 100*r.Rate(), 100*r.Lo, 100*r.Hi, alpha)
		if r.Lo > alpha {
			significant = append(significant, line)
			nullSignificant = nullSignificant || r.Kind == results.TrialNull
		} else {
			above = append(above, line)
		}
	}
	ratios := trialRatios(rep, levelsOf(rows))
	for _, l := range levelsOf(rows) {
		m, err := score.MinEffectSuggestion(ratios[l], alpha)
		switch {
		case err == nil:
			fmt.Fprintf(w, "\nSuggested minimum effect at %s: -min-effect %.3f, the %g%% quantile of the largest time median ratio of %d measured trials (layout and noise alone); the default is %g.\n",
				l, m, 100*(1-alpha), len(ratios[l]), score.DefaultMinEffect)
		case len(ratios[l]) > 0:
			// A suggestion from a few trials would be their largest ratio,
			// 1 (the guard off) when the mutant happened to be faster.
			fmt.Fprintf(w, "\nNo minimum effect suggested at %s: %v.\n", l, err)
		}
	}
	if len(significant) == 0 && len(above) == 0 {
		writeWithinAlpha(w, rows, alpha)
		return
	}
	writeCalibrationAdvice(w, significant, above, nullSignificant)
}

// writeWithinAlpha closes a calibration in which no rate is above alpha.
// Kills can be trusted when every measured row's 95% upper bound is at
// most alpha; with fewer trials the rate is only not above alpha, and it
// says how many trials (with no false kill) would show it within.
func writeWithinAlpha(w io.Writer, rows []CalibrationRow, alpha float64) {
	hi, n := 0.0, 0
	for _, r := range rows {
		if r.N > 0 && r.Hi > hi {
			hi, n = r.Hi, r.N
		}
	}
	if hi <= alpha {
		fmt.Fprintln(w, "\nThe false-kill rate is within alpha: kills on this machine can be trusted at these settings.")
		return
	}
	need := n
	for need < 10000 {
		if _, h := score.ClopperPearson(0, need, 0.95); h <= alpha {
			break
		}
		need++
	}
	fmt.Fprintf(w, "\nNo false-kill rate is above alpha, but %s cannot show it within alpha (the 95%% upper bound reaches %.1f%%); -trials %d with no false kill would.\n",
		english.Plural(n, "trial"), 100*hi, need)
}

// writeCalibrationRow prints one row of the calibration table.
func writeCalibrationRow(w io.Writer, r CalibrationRow, alpha float64) {
	verdict := "ok"
	switch {
	case r.N == 0:
		verdict = "no trial measured"
	case r.Lo > alpha:
		verdict = "ABOVE alpha"
	case r.Rate() > alpha:
		verdict = "above alpha, not significantly"
	}
	interval := fmt.Sprintf("[%.1f%%, %.1f%%]", 100*r.Lo, 100*r.Hi)
	fmt.Fprintf(w, "%-6s  %-23s  %6d  %11d  %5.1f%%  %-17s  %4.1f%%  %s", r.Level, trialName(r.Kind), r.N, r.Killed, 100*r.Rate(), interval, 100*alpha, verdict)
	if len(r.Unmeasured) > 0 {
		var parts []string
		for _, st := range score.Statuses {
			if n := r.Unmeasured[string(st)]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, st))
			}
		}
		fmt.Fprintf(w, " (not measured: %s)", strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
}

// writeCalibrationAdvice prints the warnings about rates above alpha
// (significantly, or not) and what to try.
func writeCalibrationAdvice(w io.Writer, significant, above []string, nullSignificant bool) {
	if len(significant) > 0 {
		fmt.Fprintln(w, "\nwarning: mutants that change nothing are killed more often than alpha allows:")
		for _, s := range significant {
			fmt.Fprintf(w, "  %s\n", s)
		}
		fmt.Fprintln(w, "This machine is too noisy for these settings. Try:")
	}
	if len(above) > 0 {
		fmt.Fprintln(w, "\nwarning: the false-kill rate is above alpha, but its interval still includes alpha:")
		for _, s := range above {
			fmt.Fprintf(w, "  %s\n", s)
		}
		if len(significant) == 0 {
			fmt.Fprintln(w, "Run more -trials (e.g. -trials 100) to tell noise from chance. If it stays above alpha, try:")
		}
	}
	fmt.Fprintln(w, "  - a longer -sample-time (e.g. 100ms), so each sample averages more iterations;")
	if nullSignificant {
		fmt.Fprintln(w, "  - -min-effect 1.02 (or more), so code-layout shifts of a few percent do not kill;")
	} else {
		fmt.Fprintln(w, "  - -min-effect 1.02, so tiny shifts do not kill;")
	}
	fmt.Fprintln(w, "  - fewer background jobs: stop other builds and tests, pin the CPU frequency, avoid shared CI runners;")
	fmt.Fprintln(w, "then run perfmut calibrate again with the same flags.")
}

// trialRatios returns, per level, each measured trial's largest time
// median ratio (the metrics a minimum effect applies to), for
// score.SuggestMinEffect.
func trialRatios(rep *results.Report, levels []string) map[string][]float64 {
	out := map[string][]float64{}
	for _, l := range levels {
		for _, m := range rep.Mutants {
			r := m.Results[l]
			if r == nil || (r.Status != score.Killed && r.Status != score.Survived && r.Status != score.Undecided) {
				continue
			}
			best := 0.0
			for _, t := range r.Benchmarks {
				if !score.IsCount(t.Metric) {
					best = max(best, t.Ratio)
				}
			}
			if best > 0 {
				out[l] = append(out[l], best)
			}
		}
	}
	return out
}

// levelsOf returns the rows' levels in order, once each.
func levelsOf(rows []CalibrationRow) []string {
	var ls []string
	for _, r := range rows {
		if !slices.Contains(ls, r.Level) {
			ls = append(ls, r.Level)
		}
	}
	return ls
}
