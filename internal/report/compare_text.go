package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// compareText writes the comparison as a table for a terminal:
//
//	OLD main (1a2b3c4d5e6f) -> NEW the working tree (HEAD 1a2b3c4d5e6f)
//	benchmarks whose timed loop runs code changed between OLD and NEW: 1 (BenchmarkSum)
//
//	BENCHMARK     METRIC     OLD      NEW      NEW/OLD  95% INTERVAL    P         N   VERDICT
//	BenchmarkSum  sec/op     1.21ms   2.43ms   2.00     [1.98, 2.03]    0.00016   5   slower
//	BenchmarkSum  B/op       0B       0B       1        [1, 1]          1         5   same
//
//	gate: 1 slower beyond -max-slowdown 5%: BenchmarkSum sec/op 2x
func compareText(w io.Writer, c *results.Comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "OLD %s -> NEW %s\n%s\n", sideLabel(c.Old), sideLabel(c.New), c.Selection.Reason)
	if len(c.Benchmarks) > 0 {
		b.WriteString("\n")
		tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "BENCHMARK\tMETRIC\tOLD\tNEW\tNEW/OLD\t95% INTERVAL\tP\tN\tVERDICT")
		for _, bm := range c.Benchmarks {
			name := benchName(c, bm)
			if bm.Status != results.Measured {
				fmt.Fprintf(tw, "%s\t\t\t\t\t\t\t\t%s: %s\n", name, bm.Status, bm.Reason)
				continue
			}
			for _, m := range bm.Metrics {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.2g\t%d\t%s\n", name, m.Metric,
					formatValue(m.Old, m.Metric), formatValue(m.New, m.Metric), results.FormatRatio(m.Ratio), interval(m),
					m.P, min(len(m.OldValues), len(m.NewValues)), m.Verdict)
			}
		}
		tw.Flush()
	}
	if n := c.Counts(); len(c.Benchmarks) > 0 {
		fmt.Fprintf(&b, "\n%d slower, %d faster, %d same, %d undecided (metrics; alpha %g over the comparison, minimum effect %s)\n",
			n[score.Slower], n[score.Faster], n[score.Same], n[score.Unsure], c.Settings.Alpha, minEffects(c.Settings))
	}
	writeAttribText(&b, c)
	if c.Score != nil {
		writeScoreText(&b, c.Score)
	}
	if c.Generated != nil {
		writeGeneratedText(&b, c.Generated)
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if c.Old.Samples != "" && len(c.Benchmarks) > 0 {
		fmt.Fprintf(&b, "samples: benchstat %s %s\n", c.Old.Samples, c.New.Samples)
	}
	b.WriteString(gateLine(c) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// gateLine says whether the gate passed.
func gateLine(c *results.Comparison) string {
	if len(c.Failures) == 0 {
		return fmt.Sprintf("gate: pass (no metric slower beyond -max-slowdown %s)", pct(c.MaxSlowdown))
	}
	return fmt.Sprintf("gate: FAIL: %s beyond -max-slowdown %s: %s",
		english.Plural(len(c.Failures), "slower metric"), pct(c.MaxSlowdown), strings.Join(c.Failures, ", "))
}

// benchName is the benchmark's name, qualified by its package where two
// packages' benchmarks share it.
func benchName(c *results.Comparison, bm results.CompareBenchmark) string {
	for _, o := range c.Benchmarks {
		if o.Name == bm.Name && o.Package != bm.Package {
			return bm.Package + "." + bm.Name
		}
	}
	return bm.Name
}

// minEffect shows a minimum effect ratio as a percentage, "off" for 0.
func minEffect(m float64) string {
	if m <= 1 {
		return "off"
	}
	return pct(m - 1)
}

// WriteCompare prints the comparison's table to w, writes compare.md into
// dir (beside compare.json) and says where the results are.
func WriteCompare(w io.Writer, dir string, c *results.Comparison) error {
	if err := compareText(w, c); err != nil {
		return err
	}
	if err := writeCompareMarkdown(filepath.Join(dir, results.CompareMarkdownFile), c); err != nil {
		return fmt.Errorf("writing the reports: %w (%s is complete)", err, results.CompareFile)
	}
	_, err := fmt.Fprintf(w, "results in %s\n", dir)
	return err
}
