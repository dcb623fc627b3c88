package report

import (
	"fmt"
	"math"
	"path"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perfmut/perfmut/results"
)

// maxPlottedFunctions caps the functions in report.html's sensitivity
// plot: the worst protected of those some benchmark times.
const maxPlottedFunctions = 30

// factorBars implements plotter.XYer and plotter.XErrorer: one function
// per row (y = its index), its factor and 95% interval.
type factorBars struct {
	x, lo, hi []float64
}

func (f factorBars) Len() int                        { return len(f.x) }
func (f factorBars) XY(i int) (float64, float64)     { return f.x[i], float64(i) }
func (f factorBars) XError(i int) (float64, float64) { return f.x[i] - f.lo[i], f.hi[i] - f.x[i] }

// funcPlot is report.html's plot of the map: the factor of the worst
// protected timed functions (at most maxPlottedFunctions), with its 95%
// interval, on a log scale, and the warning threshold warn as a line; ""
// when no function is timed.
func funcPlot(rows []results.FunctionSensitivity, warn float64) (string, error) {
	var bars factorBars
	var names []string
	top := 1.0
	for _, r := range rows {
		if r.Factor != nil {
			top = math.Max(top, math.Max(*r.Factor, r.FactorHigh))
		}
	}
	top = math.Max(top, warn) * 1.3
	for _, r := range rows {
		if r.Factor == nil || len(names) == maxPlottedFunctions {
			continue
		}
		hi := r.FactorHigh
		if hi <= 0 { // unbounded
			hi = top
		}
		bars.x = append(bars.x, *r.Factor)
		bars.lo = append(bars.lo, math.Min(r.FactorLow, *r.Factor))
		bars.hi = append(bars.hi, math.Max(hi, *r.Factor))
		names = append(names, path.Base(r.Package)+"."+r.Function)
	}
	if len(names) == 0 {
		return "", nil
	}
	// The worst protected at the top.
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
		bars.x[i], bars.x[j] = bars.x[j], bars.x[i]
		bars.lo[i], bars.lo[j] = bars.lo[j], bars.lo[i]
		bars.hi[i], bars.hi[j] = bars.hi[j], bars.hi[i]
	}
	p := newPlot()
	p.Title.Text = "Smallest slowdown a benchmark notices, by function"
	p.X.Label.Text = "factor (log scale; 95% interval)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.X.Min, p.X.Max = 1, top
	p.Add(plotter.NewGrid())
	eb, err := plotter.NewXErrorBars(bars)
	if err != nil {
		return "", fmt.Errorf("sensitivity plot: %w", err)
	}
	eb.LineStyle.Color = colBaseline
	sc, err := plotter.NewScatter(bars)
	if err != nil {
		return "", fmt.Errorf("sensitivity plot: %w", err)
	}
	sc.GlyphStyle.Color = colBaseline
	sc.GlyphStyle.Radius = vg.Points(2.5)
	line, err := plotter.NewLine(plotter.XYs{{X: warn, Y: -0.5}, {X: warn, Y: float64(len(names)) - 0.5}})
	if err != nil {
		return "", fmt.Errorf("sensitivity plot: %w", err)
	}
	line.Color = colMutant
	line.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(eb, sc, line)
	p.Legend.Add(fmt.Sprintf("warning above x%g", warn), line)
	p.Legend.Top = true
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.7, float64(len(names))-0.3
	return svgOf(p, vg.Points(520), vg.Points(math.Max(160, 16*float64(len(names))+70)))
}
