package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/perfmut/perfmut/results"
)

// Colours shared by the plots and the page.
var (
	colBaseline = color.RGBA{0x4c, 0x78, 0xa8, 0xff}
	colMutant   = color.RGBA{0xe4, 0x57, 0x56, 0xff}
	colAlphas   = []color.RGBA{{0x9e, 0xc5, 0xe8, 0xff}, {0x4c, 0x78, 0xa8, 0xff}, {0x1f, 0x3b, 0x5c, 0xff}}
)

// newPlot returns a plot whose text uses Liberation Sans.
func newPlot() *plot.Plot {
	p := plot.New()
	sans := font.Font{Typeface: "Liberation", Variant: "Sans"}
	set := func(s *text.Style, size vg.Length) { s.Font = font.From(sans, size) }
	set(&p.Title.TextStyle, 11)
	set(&p.X.Label.TextStyle, 9)
	set(&p.Y.Label.TextStyle, 9)
	set(&p.X.Tick.Label, 8)
	set(&p.Y.Tick.Label, 8)
	set(&p.Legend.TextStyle, 8)
	p.Title.Padding = vg.Points(4)
	return p
}

// svgOf renders p as an inline <svg> element (no XML prolog).
func svgOf(p *plot.Plot, w, h vg.Length) (string, error) {
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("rendering plot: %w", err)
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return s, nil
}

// scoreBars is the SlowCoach Fig. 4 plot for one level: per operator
// (labels, in order), the mutation score (in %) at each alpha, as grouped
// bars; scores[alpha][i] is the score of operator i.
func scoreBars(level string, labels []string, alphas []float64, scores map[float64][]float64) (string, error) {
	p := newPlot()
	p.Title.Text = "Mutation score by operator, " + level
	p.Y.Label.Text = "score (%)"
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	p.Add(grid)
	// Room above 100% for the legend.
	p.Y.Min, p.Y.Max = 0, 122
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 25, Label: "25"}, {Value: 50, Label: "50"}, {Value: 75, Label: "75"}, {Value: 100, Label: "100"}})
	w := vg.Points(math.Min(14, 60/float64(len(alphas))))
	for i, a := range alphas {
		b, err := plotter.NewBarChart(plotter.Values(scores[a]), w)
		if err != nil {
			return "", fmt.Errorf("score plot: %w", err)
		}
		b.Color = colAlphas[min(i, len(colAlphas)-1)]
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(i)-float64(len(alphas)-1)/2)
		p.Add(b)
		p.Legend.Add(fmt.Sprintf("α = %g", a), b)
	}
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.XOffs = -vg.Points(6)
	p.Legend.YOffs = -vg.Points(2)
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.6, float64(len(labels))-0.4
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	width := vg.Points(math.Max(340, 56*float64(len(labels))+70))
	return svgOf(p, width, vg.Points(260))
}

// boxPlot draws baseline vs mutant samples of one benchmark and metric:
// boxes with the individual samples beside them.
func boxPlot(s results.SampleSet) (string, error) {
	unit, scale := displayUnit(s.Metric, append(slices.Clone(s.Baseline), s.Mutant...))
	p := newPlot()
	p.Title.Text = strings.TrimPrefix(s.Benchmark, "Benchmark")
	p.Y.Label.Text = unit
	p.Add(plotter.NewGrid())
	for i, vals := range [][]float64{s.Baseline, s.Mutant} {
		if len(vals) == 0 {
			continue
		}
		v := make(plotter.Values, len(vals))
		for j, x := range vals {
			v[j] = x * scale
		}
		b, err := plotter.NewBoxPlot(vg.Points(36), float64(i), v)
		if err != nil {
			return "", fmt.Errorf("box plot: %w", err)
		}
		col := colBaseline
		if i == 1 {
			col = colMutant
		}
		b.FillColor = withAlpha(col, 0x40)
		b.BoxStyle.Color = col
		b.MedianStyle.Color = col
		b.MedianStyle.Width = vg.Points(2)
		b.WhiskerStyle.Color = col
		b.GlyphStyle.Color = col
		p.Add(b)
		pts := make(plotter.XYs, len(v))
		for j, y := range v {
			// Spread the samples in a narrow band to the right of the box.
			pts[j] = plotter.XY{X: float64(i) + 0.32 + 0.06*jitter(j), Y: y}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return "", fmt.Errorf("box plot: %w", err)
		}
		sc.GlyphStyle.Color = col
		sc.GlyphStyle.Radius = vg.Points(1.6)
		p.Add(sc)
	}
	p.NominalX(fmt.Sprintf("baseline (%d)", len(s.Baseline)), fmt.Sprintf("mutant (%d)", len(s.Mutant)))
	p.X.Min, p.X.Max = -0.6, 1.6
	all := append(slices.Clone(s.Baseline), s.Mutant...)
	if len(all) > 0 {
		lo, hi := slices.Min(all)*scale, slices.Max(all)*scale
		switch {
		case lo > 0 && hi/lo > 20:
			// A slowdown of orders of magnitude: only a log scale shows both.
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
			p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
		case hi-lo < 1e-12*math.Max(1, math.Abs(hi)):
			// Constant samples (e.g. allocs/op): give the axis some room.
			pad := math.Max(math.Abs(hi)*0.05, 0.5)
			p.Y.Min, p.Y.Max = lo-pad, hi+pad
		default:
			pad := (hi - lo) * 0.08
			p.Y.Min, p.Y.Max = lo-pad, hi+pad
		}
	}
	return svgOf(p, vg.Points(230), vg.Points(190))
}

// jitter is a fixed pseudo-random offset in [-1, 1] for sample j.
func jitter(j int) float64 { return math.Sin(float64(j) * 12.9898) }

func withAlpha(c color.RGBA, a uint8) color.NRGBA {
	return color.NRGBA{c.R, c.G, c.B, a}
}

// displayUnit picks a readable unit for a metric's values: sec/op becomes
// ns/op, µs/op, ms/op or s/op by magnitude; others stay as they are.
func displayUnit(metric string, vals []float64) (string, float64) {
	if metric != "sec/op" || len(vals) == 0 {
		return metric, 1
	}
	m := slices.Max(vals)
	switch {
	case m < 1e-6:
		return "ns/op", 1e9
	case m < 1e-3:
		return "µs/op", 1e6
	case m < 1:
		return "ms/op", 1e3
	}
	return "s/op", 1
}
