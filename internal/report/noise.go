package report

import (
	"fmt"
	"slices"

	"github.com/perfmut/perfmut/results"
)

// noiseLines are the header's lines on the machine's noise over the
// campaign (none for a report without it): the load and CPU steal at its
// start and end, the spread of the baseline's samples per metric, and the
// advice given at the start.
func noiseLines(rep *results.Report) []string {
	n := rep.Noise
	if n == nil {
		return nil
	}
	machine := "machine: " + n.Machine.String()
	if n.Measures != "" {
		machine += "; measuring " + n.Measures
	}
	out := []string{machine}
	byMetric := map[string][]results.BenchNoise{}
	var metrics []string
	for _, b := range n.Benchmarks {
		if byMetric[b.Metric] == nil {
			metrics = append(metrics, b.Metric)
		}
		byMetric[b.Metric] = append(byMetric[b.Metric], b)
	}
	for _, m := range metrics {
		out = append(out, spreadLine(m, byMetric[m]))
	}
	for _, a := range n.Advice {
		out = append(out, "advice: "+a)
	}
	return out
}

// spreadLine sums up the baseline spread of bs, the benchmarks measured
// in metric: the range of their robust CVs and the noisiest one.
func spreadLine(metric string, bs []results.BenchNoise) string {
	var cvs []float64
	worst := -1
	for i, b := range bs {
		if b.CV == nil {
			continue
		}
		cvs = append(cvs, *b.CV)
		if worst < 0 || *b.CV > *bs[worst].CV {
			worst = i
		}
	}
	line := fmt.Sprintf("baseline noise (%s): %d benchmarks", metric, len(bs))
	if worst < 0 {
		return line + ", spread unknown"
	}
	line += fmt.Sprintf(", CV %s to %s", pct(slices.Min(cvs)), pct(slices.Max(cvs)))
	w := bs[worst]
	line += fmt.Sprintf(", noisiest %s (max/min %s", w.Name, maxMinString(w.MaxMin))
	if w.Detectable != nil {
		line += fmt.Sprintf(", detects %s", ratioString(*w.Detectable))
	}
	noisy := 0
	for _, b := range bs {
		if b.TooNoisy {
			noisy++
		}
	}
	line += ")"
	if noisy > 0 {
		line += fmt.Sprintf("; %d too noisy for the minimum effect", noisy)
	}
	return line
}

// maxMinString is a spread's max/min, "unknown" when nil.
func maxMinString(x *float64) string {
	if x == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.3g", *x)
}

// metricText says which metric a level's verdict rests on and why, e.g.
// "instructions/op (work: an instruction count sees it)"; "" for a
// result that does not say (wall time, before the choice existed) and in
// a campaign measuring wall time only (every verdict is on it).
func metricText(rep *results.Report, r *results.LevelResult) string {
	if r == nil || r.Metric == "" || rep.Settings.Measure == "" || rep.Settings.Measure == "time" {
		return ""
	}
	if r.MetricReason == "" {
		return r.Metric
	}
	return r.Metric + " (" + r.MetricReason + ")"
}
