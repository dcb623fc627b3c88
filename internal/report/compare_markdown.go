package report

import (
	"fmt"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// compareMarker starts compare.md, so that a workflow finds and updates
// its earlier comment instead of adding one per push.
const compareMarker = "<!-- perfmut-compare -->"

// maxFoldedRows caps the folded table of compare.md.
const maxFoldedRows = 300

// verdictMark is the Markdown symbol of a verdict.
var verdictMark = map[score.ChangeVerdict]string{
	score.Slower: "🔴 slower",
	score.Faster: "🟢 faster",
	score.Same:   "⚪ same",
	score.Unsure: "🟡 undecided",
}

// compareMarkdown renders the comparison for a pull-request comment: the
// gate, the changed metrics first, then the rest in a folded table.
func compareMarkdown(c *results.Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n### perfmut compare: %s\n\n", compareMarker, mdGate(c))
	fmt.Fprintf(&b, "`%s` → `%s`. %s.\n", sideLabel(c.Old), sideLabel(c.New), mdEscape(c.Selection.Reason))
	var changed, rest []string
	for _, bm := range c.Benchmarks {
		name := mdEscape(benchName(c, bm))
		if bm.Status != results.Measured {
			rest = append(rest, fmt.Sprintf("| %s | | | | | | | %s: %s |", name, bm.Status, mdEscape(bm.Reason)))
			continue
		}
		for _, m := range bm.Metrics {
			row := fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %.2g | %s |", name, m.Metric,
				formatValue(m.Old, m.Metric), formatValue(m.New, m.Metric), results.FormatRatio(m.Ratio), interval(m), m.P, verdictMark[m.Verdict])
			if m.Verdict == score.Slower || m.Verdict == score.Faster {
				changed = append(changed, row)
			} else {
				rest = append(rest, row)
			}
		}
	}
	const head = "| Benchmark | Metric | Old | New | New/Old | 95% interval | p | Verdict |\n|---|---|--:|--:|--:|---|--:|---|\n"
	if len(changed) > 0 {
		b.WriteString("\n" + head + strings.Join(changed, "\n") + "\n")
	}
	if len(rest) > maxFoldedRows { // GitHub's comment limit is 65,536 characters
		rest = append(rest[:maxFoldedRows:maxFoldedRows], fmt.Sprintf("| … %d more rows in %s | | | | | | | |", len(rest)-maxFoldedRows, results.CompareFile))
	}
	if len(rest) > 0 {
		n := c.Counts()
		fmt.Fprintf(&b, "\n<details><summary>%d same, %d undecided, %d other</summary>\n\n%s%s\n\n</details>\n",
			n[score.Same], n[score.Unsure], len(rest)-n[score.Same]-n[score.Unsure], head, strings.Join(rest, "\n"))
	}
	writeAttribMarkdown(&b, c)
	if c.Score != nil {
		writeScoreMarkdown(&b, c.Score)
	}
	if c.Generated != nil {
		writeGeneratedMarkdown(&b, c.Generated)
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(&b, "\n> ⚠️ %s\n", mdEscape(w))
	}
	fmt.Fprintf(&b, "\n<sub>Interleaved samples of both versions on one machine; one-sided Wilcoxon signed-rank tests of the per-round ratios NEW/OLD in both directions with early stopping (p before the correction), alpha %g over the comparison, minimum effect %s. `benchstat %s %s` shows the same samples.</sub>\n",
		c.Settings.Alpha, minEffects(c.Settings), c.Old.Samples, c.New.Samples)
	return b.String()
}

// mdGate is the heading's verdict.
func mdGate(c *results.Comparison) string {
	if len(c.Failures) > 0 {
		return fmt.Sprintf("❌ %s slower beyond %s", english.Plural(len(c.Failures), "metric"), pct(c.MaxSlowdown))
	}
	n := c.Counts()
	if n[score.Slower] > 0 {
		return fmt.Sprintf("✅ pass (%d slower within %s)", n[score.Slower], pct(c.MaxSlowdown))
	}
	return "✅ pass"
}

// writeCompareMarkdown writes compareMarkdown(c) to path atomically.
func writeCompareMarkdown(path string, c *results.Comparison) error {
	return results.WriteAtomic(path, []byte(compareMarkdown(c)))
}
