package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/perfmut/perfmut/internal/attrib"
	"github.com/perfmut/perfmut/results"
)

// attributed lists the benchmarks of c with an attribution.
func attributed(c *results.Comparison) []results.CompareBenchmark {
	var out []results.CompareBenchmark
	for _, bm := range c.Benchmarks {
		if bm.Attribution != nil && len(bm.Attribution.Metrics) > 0 {
			out = append(out, bm)
		}
	}
	return out
}

// writeAttribText writes the attributions of c: per explained metric its
// summary line and its functions, per benchmark the go tool pprof
// command that shows the difference.
func writeAttribText(b *strings.Builder, c *results.Comparison) {
	bms := attributed(c)
	if len(bms) == 0 {
		return
	}
	b.WriteString("\nwhere (CPU and allocation profiles of both versions in interleaved rounds; values per op, 95% intervals of the per-round differences):\n")
	for _, bm := range bms {
		a := bm.Attribution
		for _, m := range a.Metrics {
			fmt.Fprintf(b, "%s\n", m.Summary)
			if len(m.Functions) == 0 {
				continue
			}
			tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
			fmt.Fprintf(tw, "  FUNCTION\tOLD %s\tNEW %s\tDELTA\t95%% INTERVAL\tSHARE\t\n", m.Unit, m.Unit)
			for _, f := range m.Functions {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", attrib.Short(f.Function), num(f.Old), num(f.New),
					signed(f.Delta), deltaInterval(f.DeltaLo, f.DeltaHi), pct(f.Share), funcNote(f))
			}
			tw.Flush()
		}
		fmt.Fprintf(b, "  %d rounds at %s iterations: go tool pprof -diff_base %s %s (in the results directory)\n",
			a.Rounds, iterRange(a.Iterations), a.Profiles.OldCPU, a.Profiles.NewCPU)
	}
}

// writeAttribMarkdown writes the attributions of c for a pull-request
// comment: the summary lines, then the functions in a folded table.
func writeAttribMarkdown(b *strings.Builder, c *results.Comparison) {
	bms := attributed(c)
	if len(bms) == 0 {
		return
	}
	b.WriteString("\n**Where**\n\n")
	var rows []string
	for _, bm := range bms {
		for _, m := range bm.Attribution.Metrics {
			fmt.Fprintf(b, "- %s\n", mdEscape(m.Summary))
			for _, f := range m.Functions {
				rows = append(rows, fmt.Sprintf("| %s | %s | `%s` | %s %s | %s %s | %s | %s | %s | %s |", mdEscape(benchName(c, bm)), m.Metric,
					attrib.Short(f.Function), num(f.Old), m.Unit, num(f.New), m.Unit, signed(f.Delta), deltaInterval(f.DeltaLo, f.DeltaHi), pct(f.Share), mdEscape(funcNote(f))))
			}
		}
	}
	if len(rows) > 0 {
		fmt.Fprintf(b, "\n<details><summary>functions (CPU and allocation profiles, interleaved rounds; pprof files in the results directory)</summary>\n\n| Benchmark | Metric | Function | Old | New | Delta | 95%% interval | Share | |\n|---|---|---|--:|--:|--:|---|--:|---|\n%s\n\n</details>\n", strings.Join(rows, "\n"))
	}
}

// funcNote says whether a function changed or calls changed ones.
func funcNote(f results.AttribFunc) string {
	switch {
	case f.Changed != "":
		return "changed " + f.Changed
	case len(f.Calls) > 0:
		return "calls changed " + shortNames(f.Calls)
	case len(f.CalledBy) > 0:
		return "called by changed " + shortNames(f.CalledBy)
	case f.Outside:
		return "outside the module"
	}
	return ""
}

// shortNames joins function keys in their short form.
func shortNames(keys []string) string {
	var s []string
	for _, k := range keys {
		s = append(s, attrib.Short(k))
	}
	return strings.Join(s, ", ")
}

// num shows a value per op with 3 significant digits.
func num(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// signed shows a difference with its sign.
func signed(x float64) string {
	if x > 0 {
		return "+" + num(x)
	}
	return num(x)
}

// deltaInterval shows the interval of a difference, "-" without one.
func deltaInterval(lo, hi float64) string {
	if lo == 0 && hi == 0 {
		return "-"
	}
	return "[" + signed(lo) + ", " + signed(hi) + "]"
}

// iterRange shows the rounds' iteration counts: 1000, or 1000 to 8000.
func iterRange(ns []int) string {
	if len(ns) == 0 {
		return "0"
	}
	lo, hi := slices.Min(ns), slices.Max(ns)
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + " to " + strconv.Itoa(hi)
}
