package report

import (
	"fmt"
	"html/template"
	"slices"
	"strconv"

	"github.com/perfmut/perfmut/results"
)

// htmlNoiseAndMap fills in the page's noise lines and table, its
// sensitivity by function (every row, and the plot) and the notes on the
// changed functions.
func htmlNoiseAndMap(page *htmlPage, rep *results.Report) error {
	page.Noise = noiseLines(rep)
	if rep.Noise != nil {
		for _, b := range rep.Noise.Benchmarks {
			page.NoiseBenches = append(page.NoiseBenches, htmlNoise{Name: b.Name, Level: b.Level, Metric: b.Metric, N: b.N,
				Median: strconv.FormatFloat(b.Median, 'g', 4, 64), CV: optPct(b.CV), MaxMin: maxMinString(b.MaxMin),
				Detectable: optRatio(b.Detectable), TooNoisy: b.TooNoisy})
		}
	}
	f := &page.Funcs
	f.Changed, f.Since = slices.Clone(rep.ChangedFunctions), rep.Settings.ChangedSince
	for i := range f.Changed {
		f.Changed[i].Text = noteText(f.Changed[i])
	}
	if len(f.Changed) > 0 {
		f.WarnRule = warnRule(rep)
	}
	if len(rep.FunctionSensitivity) == 0 {
		return nil
	}
	f.Rows, f.Legend, f.Skipped = funcRows(rep, 0), funcMapLegend(rep), mapSkipped(rep)
	svg, err := funcPlot(rep.FunctionSensitivity, warnFactor(rep))
	f.Plot = template.HTML(svg)
	return err
}

// optPct is *x in per cent, "unknown" when nil.
func optPct(x *float64) string {
	if x == nil {
		return "unknown"
	}
	return pct(*x)
}

// optRatio is *x as a ratio, "unknown" when nil.
func optRatio(x *float64) string {
	if x == nil {
		return "unknown"
	}
	return fmt.Sprintf("×%.3f", *x)
}
