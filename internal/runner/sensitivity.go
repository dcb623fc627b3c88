package runner

import (
	"fmt"
	"strconv"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// sensitivities is the sensitivity of every loop site of ms
// (results.Sensitivities), each with its Text, which the reports show.
func sensitivities(ms []results.Mutant) []results.Sensitivity {
	return sensitivitiesPredicted(ms, nil)
}

// sensitivitiesPredicted is sensitivities with, at each site, the cost
// per iteration predict gives (nil: none).
func sensitivitiesPredicted(ms []results.Mutant, predict func(s results.Sensitivity) (float64, string)) []results.Sensitivity {
	ss := results.Sensitivities(ms)
	for i := range ss {
		if predict != nil {
			ss[i].PredictedNanos, ss[i].PredictedBy = predict(ss[i])
		}
		ss[i].Text = sensitivityText(ss[i])
	}
	return ss
}

// sitePredictor predicts, for a loop site of ms, the smallest cost per
// iteration some benchmark would notice (and which): for each benchmark
// whose timed loop runs the site (heat: the site's runs per benchmark
// iteration), the slowdown its baseline noise lets it detect (noise's
// Detectable, minus one) times its time per iteration, over the site's
// runs per iteration; the smallest of them.
func sitePredictor(ms []results.Mutant, noise *results.Noise, heat func(m results.Mutant) map[engine.Benchmark]engine.BenchHeat) func(results.Sensitivity) (float64, string) {
	return func(s results.Sensitivity) (float64, string) {
		if noise == nil {
			return 0, ""
		}
		for _, m := range ms {
			if m.File != s.File || m.Line != s.Line || m.Column != s.Column || m.Op == nil || m.Op.LoopCost == nil {
				continue
			}
			best, by := 0.0, ""
			for b, h := range heat(m) {
				if h.PerIter <= 0 {
					continue
				}
				for _, nb := range noise.Benchmarks {
					if nb.Level != s.Level || nb.Metric != score.SecPerOp || nb.Detectable == nil || nb.Median <= 0 || (nb.Name != b.Name && nb.Name != b.CPUName()) {
						continue
					}
					ns := (*nb.Detectable - 1) * nb.Median * 1e9 / h.PerIter
					if ns > 0 && (by == "" || ns < best || ns == best && nb.Name < by) {
						best, by = ns, nb.Name
					}
				}
			}
			return best, by
		}
		return 0, ""
	}
}

// sensitivityText words a loop site's sensitivity (results.Sensitivity's
// Text): the smallest injected time per iteration the benchmarks noticed
// there and the largest below it they missed.
//
// When even the smallest cost injected was noticed, the measured bound
// says little; the prediction (PredictedNanos) then says how small a cost
// the benchmarks would still notice.
func sensitivityText(s results.Sensitivity) string {
	var text string
	switch {
	case s.DetectedNanos > 0 && s.MissedNanos > 0:
		text = fmt.Sprintf("benchmarks notice +%s per iteration here, not +%s", nanos(s.DetectedNanos), nanos(s.MissedNanos))
	case s.DetectedNanos > 0:
		text = fmt.Sprintf("benchmarks notice +%s per iteration here", nanos(s.DetectedNanos))
		if s.PredictedNanos > 0 {
			text += fmt.Sprintf(", the smallest cost injected; %s's noise says it would notice about +%s", s.PredictedBy, nanos(s.PredictedNanos))
		}
		return text
	default:
		text = fmt.Sprintf("benchmarks notice nothing up to +%s per iteration here", nanos(s.MissedNanos))
	}
	if s.PredictedNanos > 0 {
		text += fmt.Sprintf("; %s's noise says it would notice about +%s", s.PredictedBy, nanos(s.PredictedNanos))
	}
	return text
}

// nanos prints a duration in ns with two significant digits and no
// exponent: 650ns, 7µs, 0.7ms, 140ms.
func nanos(ns float64) string {
	// Round first, so that 999.6ns prints as 1µs, not 1e+03ns.
	r, _ := strconv.ParseFloat(fmt.Sprintf("%.2g", ns), 64)
	unit, div := "ns", 1.0
	switch {
	case r >= 1e6:
		unit, div = "ms", 1e6
	case r >= 1e3:
		unit, div = "µs", 1e3
	}
	return strconv.FormatFloat(r/div, 'f', -1, 64) + unit
}
