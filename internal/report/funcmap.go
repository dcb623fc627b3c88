package report

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
)

// maxFunctionRows caps the rows of the "Sensitivity by function" section
// in the text and Markdown reports (the worst protected first); the HTML
// report and report.json have them all.
const maxFunctionRows = 25

// A funcRow is one row of the sensitivity by function, as the reports
// show it.
type funcRow struct {
	Function  string // importpath.Func
	Factor    string // "x1.37", ">x2.97", "never", "set-up only"
	Interval  string // "[1.27, 1.53]", "" when not timed
	Benchmark string // BenchmarkX (its package is the function's or says so)
	Share     string // "42.2% [29.0%, 56.7%]"
}

// funcRows are the rows of rep's map, worst protected first, at most max
// of them (0: all).
func funcRows(rep *results.Report, max int) []funcRow {
	fs := rep.FunctionSensitivity
	if max > 0 && len(fs) > max {
		fs = fs[:max]
	}
	out := make([]funcRow, 0, len(fs))
	for _, f := range fs {
		out = append(out, funcRowOf(f))
	}
	return out
}

// funcRowOf is f as the reports show it.
func funcRowOf(f results.FunctionSensitivity) funcRow {
	r := funcRow{Function: f.Package + "." + f.Function, Factor: f.Status}
	if f.Factor == nil {
		return r
	}
	r.Factor = fmt.Sprintf("x%.3g", *f.Factor)
	if f.AtLeast {
		r.Factor = ">" + r.Factor
	}
	high := "inf"
	if f.FactorHigh > 0 {
		high = fmt.Sprintf("%.3g", f.FactorHigh)
	}
	r.Interval = fmt.Sprintf("[%.3g, %s]", f.FactorLow, high)
	r.Benchmark = benchShort(f.Benchmark, f.Package)
	r.Share = fmt.Sprintf("%s [%s, %s]", pct(f.Share), pct(f.ShareLow), pct(f.ShareHigh))
	return r
}

// benchShort is benchmark (importpath.BenchmarkX) without its package
// when that is pkg, else with the package's last element.
func benchShort(benchmark, pkg string) string {
	if s, ok := strings.CutPrefix(benchmark, pkg+"."); ok {
		return s
	}
	i := strings.LastIndex(benchmark, ".")
	if i < 0 {
		return benchmark
	}
	return path.Base(benchmark[:i]) + "." + benchmark[i+1:]
}

// funcMapLegend says how to read the section, and what the map cost.
func funcMapLegend(rep *results.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s; factor: the smallest slowdown of the function alone that its best benchmark detects at the campaign's sample budget",
		english.Plural(len(rep.FunctionSensitivity), "function"))
	if m := rep.FunctionMap; m != nil {
		if m.Reused {
			fmt.Fprintf(&b, "; map of %s reused from -since (nothing it depends on changed)", english.Plural(m.Benchmarks, "benchmark"))
		} else {
			fmt.Fprintf(&b, "; map of %s took %.1fs", english.Plural(m.Benchmarks, "benchmark"), m.Seconds())
		}
		if m.From != "" {
			fmt.Fprintf(&b, "; the map of %s", m.From)
		}
		if len(m.Counted) > 0 {
			fmt.Fprintf(&b, "; detectable ratios from instruction counts for %s, from wall time for the others", countedNames(m.Counted))
		}
	}
	return b.String()
}

// maxCountedNamed is how many counted benchmarks the legend names.
const maxCountedNamed = 3

// countedNames names the first maxCountedNamed of the benchmarks whose
// detectable ratio is from instruction counts, and how many more.
func countedNames(counted []string) string {
	var names []string
	for _, c := range counted[:min(len(counted), maxCountedNamed)] {
		names = append(names, benchShort(c, ""))
	}
	if n := len(counted) - maxCountedNamed; n > 0 {
		names = append(names, fmt.Sprintf("%d more", n))
	}
	return strings.Join(names, ", ")
}

// moreRows says how many rows past maxFunctionRows are left out, or "".
func moreRows(rep *results.Report) string {
	if n := len(rep.FunctionSensitivity) - maxFunctionRows; n > 0 {
		return fmt.Sprintf("%d better protected functions more in report.json (function_sensitivity)", n)
	}
	return ""
}

// textFunctionMap writes the "Sensitivity by function" section.
func textFunctionMap(w io.Writer, rep *results.Report) {
	if len(rep.FunctionSensitivity) == 0 {
		return
	}
	fmt.Fprintln(w, "\nSensitivity by function (worst protected first):")
	t := &table{indent: "  "}
	t.add("function", "factor", "95% interval", "benchmark", "share [95%]")
	for _, r := range funcRows(rep, maxFunctionRows) {
		t.add(r.Function, r.Factor, r.Interval, r.Benchmark, r.Share)
	}
	t.write(w)
	if s := moreRows(rep); s != "" {
		fmt.Fprintf(w, "  %s\n", s)
	}
	fmt.Fprintf(w, "  %s\n", funcMapLegend(rep))
	for _, s := range mapSkipped(rep) {
		fmt.Fprintf(w, "  %s\n", s)
	}
}

// textChangedFunctions writes the notes on the functions changed since
// -changed-since.
func textChangedFunctions(w io.Writer, rep *results.Report) {
	if len(rep.ChangedFunctions) == 0 {
		return
	}
	fmt.Fprintf(w, "\nChanged functions since %s: what notices them slowing down (a warning: %s):\n", rep.Settings.ChangedSince, warnRule(rep))
	for _, n := range rep.ChangedFunctions {
		kind := "note"
		if n.Warning {
			kind = "warning"
		}
		fmt.Fprintf(w, "  %-7s %s: %s\n", kind, n.Function, noteText(n))
	}
}

// mapSkipped are the lines on the benchmarks the map left out.
func mapSkipped(rep *results.Report) []string {
	if rep.FunctionMap == nil {
		return nil
	}
	var out []string
	for _, s := range rep.FunctionMap.Skipped {
		out = append(out, "left out of the map (failed on the baseline): "+s)
	}
	return out
}

// mdFunctionMap is the Markdown "Sensitivity by function" section,
// folded, or "".
func mdFunctionMap(rep *results.Report) string {
	if len(rep.FunctionSensitivity) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n<details><summary>Sensitivity by function (worst protected first)</summary>\n\n| function | factor | 95% interval | benchmark | share [95%] |\n|---|--:|---|---|---|\n")
	for _, r := range funcRows(rep, maxFunctionRows) {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", codeSpan(r.Function), mdEscape(r.Factor), r.Interval, mdEscape(r.Benchmark), r.Share)
	}
	if s := moreRows(rep); s != "" {
		fmt.Fprintf(&b, "\n%s.\n", s)
	}
	fmt.Fprintf(&b, "\n%s.\n", mdEscape(funcMapLegend(rep)))
	for _, s := range mapSkipped(rep) {
		fmt.Fprintf(&b, "\n%s\n", mdEscape(s))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// mdChangedFunctions is the Markdown summary's notes on the functions
// changed since -changed-since: what would notice each slowing down.
func mdChangedFunctions(rep *results.Report) string {
	if len(rep.ChangedFunctions) == 0 {
		return ""
	}
	var b strings.Builder
	warn := 0
	for _, n := range rep.ChangedFunctions {
		if n.Warning {
			warn++
		}
	}
	fmt.Fprintf(&b, "\n#### Changed functions since %s: what notices them slowing down\n\n", codeSpan(rep.Settings.ChangedSince))
	if warn > 0 {
		fmt.Fprintf(&b, "%d of %d %s a warning: %s.\n\n", warn, len(rep.ChangedFunctions), english.Choose(warn, "has", "have"), warnRule(rep))
	}
	for _, n := range rep.ChangedFunctions {
		kind := "note"
		if n.Warning {
			kind = "**warning**"
		}
		fmt.Fprintf(&b, "- %s %s: %s\n", kind, codeSpan(n.Function), mdEscape(noteText(n)))
	}
	return b.String()
}

// warnRule says when a changed function's note is a warning.
func warnRule(rep *results.Report) string {
	return fmt.Sprintf("no benchmark times it, or only a slowdown above x%g is caught (-warn-factor)", warnFactor(rep))
}

// warnFactor is the campaign's -warn-factor (2 when not recorded, the
// default).
func warnFactor(rep *results.Report) float64 {
	if f := rep.Settings.WarnFactor; f > 0 {
		return f
	}
	return 2
}

// noteText is n's text without the function's name, which the reports
// show apart.
func noteText(n results.FunctionNote) string {
	return strings.TrimPrefix(n.Text, n.Function+": ")
}
