package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// gitHubCommentLimit is the largest body GitHub accepts for an issue or
// pull-request comment, in characters.
const gitHubCommentLimit = 65536

// markdownMarker starts every Markdown report, so a CI job can find and
// update its previous pull-request comment instead of adding another.
const markdownMarker = "<!-- perfmut-report -->"

// writeMarkdown writes the report as a pull-request comment: scores, tables by
// operator and status, survivors with their diffs and benchstat commands in
// collapsible blocks, then no-coverage mutants by function. It stays within
// opts.MaxBytes (default GitHubCommentLimit): findings that do not fit are
// left out with a note saying how many.
func writeMarkdown(w io.Writer, rep *results.Report, opts Options) error {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = gitHubCommentLimit
	}
	lv := levels(rep, opts)
	head := mdHead(rep, lv)
	chunks, total := mdChunks(rep, lv, opts.Dir)

	// rest[i] is the length of chunks[i:].
	rest := make([]int, len(chunks)+1)
	for i := len(chunks) - 1; i >= 0; i-- {
		rest[i] = rest[i+1] + len(chunks[i].text)
	}
	out := head
	shown := 0
	for i, c := range chunks {
		// Everything left fits, or this chunk fits with room for the note.
		if len(out)+rest[i] > limit && len(out)+len(c.text)+len(truncNote(total, total, limit)) > limit {
			out += truncNote(total-shown, total, limit)
			break
		}
		out += c.text
		shown += c.count
	}
	_, err := io.WriteString(w, out)
	return err
}

// mdHead is the comment's head: the scores, and the operator and status
// tables folded.
func mdHead(rep *results.Report, lv []string) string {
	var head strings.Builder
	fmt.Fprintf(&head, "%s\n### perfmut: performance mutation score\n\n", markdownMarker)
	fmt.Fprintf(&head, "**%s** · %d mutants", mdEscape(orUnknown(rep.Module)), len(rep.Mutants))
	if rep.Go != "" {
		fmt.Fprintf(&head, " · %s", mdEscape(rep.Go))
	}
	if s := settingsLine(rep); s != "" {
		fmt.Fprintf(&head, " · %s", mdEscape(s))
	}
	if lines := noiseLines(rep); len(lines) > 0 {
		for i := range lines {
			lines[i] = mdEscape(lines[i])
		}
		head.WriteString("\n\n" + strings.Join(lines, "  \n"))
	}
	head.WriteString("\n\n| level | killed | valid | score | covered | undecided |\n|---|--:|--:|--:|--:|--:|\n")
	for _, l := range lv {
		s := levelScore(rep, l)
		fmt.Fprintf(&head, "| %s | %d | %d | **%s** | %s | %d |\n", l, s.Killed, s.Valid, scorePct(s.Score, s.Valid), coveredPct(rep, l), s.Undecided)
	}
	fmt.Fprintf(&head, "\n%s\n", mdEscape(scoreLegend(rep, lv)))
	if s := undecidedLegend(rep, lv); s != "" {
		fmt.Fprintf(&head, "%s\n", mdEscape(s))
	}
	head.WriteString("\n<details><summary>Score by operator, statuses</summary>\n\n| operator | quadrant |")
	for _, l := range lv {
		fmt.Fprintf(&head, " %s |", l)
	}
	head.WriteString("\n|---|---|" + strings.Repeat("--:|", len(lv)) + "\n")
	ops, rows := operatorScores(rep, lv)
	for _, op := range ops {
		fmt.Fprintf(&head, "| %s | %s |", op, rows[op][lv[0]].Quadrant)
		for _, l := range lv {
			r := rows[op][l]
			if r.Valid == 0 {
				head.WriteString(" 0/0 |")
				continue
			}
			fmt.Fprintf(&head, " %d/%d (%s) |", r.Killed, r.Valid, pct(r.Score))
		}
		head.WriteString("\n")
	}
	head.WriteString("\n| status |")
	for _, l := range lv {
		fmt.Fprintf(&head, " %s |", l)
	}
	head.WriteString("\n|---|" + strings.Repeat("--:|", len(lv)) + "\n")
	counts := map[string]map[score.Status]int{}
	for _, l := range lv {
		counts[l] = statusCounts(rep, l)
	}
	for _, s := range score.Statuses {
		fmt.Fprintf(&head, "| %s |", s)
		for _, l := range lv {
			fmt.Fprintf(&head, " %d |", counts[l][s])
		}
		head.WriteString("\n")
	}
	nm := countNotMeasured(rep, lv)
	if len(nm.ops) > 0 {
		head.WriteString("\nNot measured, by operator (equivalent to the baseline's code / duplicate of another mutant's):\n\n")
		for i, row := range nm.rows(lv) {
			head.WriteString("| " + strings.Join(row, " | ") + " |\n")
			if i == 0 {
				head.WriteString("|---|" + strings.Repeat("--:|", len(lv)) + "\n")
			}
		}
	}
	if s := nm.reusedLine(lv); s != "" {
		head.WriteString("\n" + s + ".\n")
	}
	head.WriteString("\n</details>\n")
	head.WriteString(mdChangedFunctions(rep))
	return head.String()
}

// An mdChunk is a piece of the findings, kept whole or left out.
type mdChunk struct {
	text  string
	count int // findings in it
}

// mdChunks are the findings and the sensitivity table, each a chunk, and
// the number of findings.
func mdChunks(rep *results.Report, lv []string, dir string) (chunks []mdChunk, total int) {
	covered, uncovered := findings(rep, lv)
	covered, faster := splitFaster(rep, covered)
	total = len(covered)
	if len(covered) > 0 {
		chunks = append(chunks, mdChunk{text: fmt.Sprintf("\n#### Survivors (%d): a benchmark ran the code and did not notice\n", len(covered))})
		for i, f := range covered {
			chunks = append(chunks, mdChunk{text: mdSurvivor(rep, i+1, f, lv, dir), count: 1})
		}
	}
	if len(faster) > 0 {
		total += len(faster)
		chunks = append(chunks, mdChunk{text: fmt.Sprintf("\n#### Faster (%d): no benchmark gap, the path each disables is slower than the one it forces\n\n", len(faster))})
		for _, f := range faster {
			chunks = append(chunks, mdItem(f, func(l string) string { return explain(rep, f.M, l).Text }, ""))
		}
	}
	if und := undecidedFindings(rep, lv); len(und) > 0 {
		total += len(und)
		chunks = append(chunks, mdChunk{text: fmt.Sprintf("\n#### Undecided (%d): measured to -max-samples without a kill or a slowdown ruled out, outside the score\n\n", len(und))})
		for _, f := range und {
			why := func(l string) string { return firstLine(f.M.Results[l].Reason) }
			chunks = append(chunks, mdItem(f, why, "  - check: "+codeSpan(reproduceCommand(rep, f.M, dir))+"\n"))
		}
	}
	if len(uncovered) > 0 {
		n := 0
		for _, g := range uncovered {
			n += len(g)
		}
		total += n
		chunks = append(chunks, mdChunk{text: fmt.Sprintf("\n#### No coverage (%d): no benchmark reaches these mutants\n\n", n)})
		for _, g := range uncovered {
			var b strings.Builder
			fmt.Fprintf(&b, "- %s (%d)\n", codeSpan(funcName(g[0].M)), len(g))
			for _, f := range g {
				m := f.M
				fmt.Fprintf(&b, "  - %s %s: %s", codeSpan(position(m)), codeSpan(m.Operator), mdEscape(m.Description))
				if r := m.Results[f.Levels[0]]; r.Reason != "" && !strings.HasPrefix(r.Reason, "no benchmark ") {
					fmt.Fprintf(&b, " (%s)", mdEscape(firstLine(r.Reason)))
				}
				b.WriteString("\n")
				b.WriteString(mdGenerated(m, "    "))
			}
			chunks = append(chunks, mdChunk{text: b.String(), count: len(g)})
		}
	}
	if len(rep.Sensitivity) > 0 {
		var b strings.Builder
		b.WriteString("\n#### Sensitivity per loop site\n\nThe smallest time per loop iteration, injected by spin-loop and sleep mutants, that the benchmarks noticed, and where even the smallest was noticed, how small a cost their noise says they would still notice.\n\n| site | function | level | sensitivity |\n|---|---|---|---|\n")
		for _, s := range rep.Sensitivity {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", codeSpan(fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)), codeSpan(s.Function), s.Level, mdEscape(s.Text))
		}
		chunks = append(chunks, mdChunk{text: b.String()})
	}
	if total == 0 && len(rep.Mutants) > 0 {
		chunks = append(chunks, mdChunk{text: "\n" + allKilledLine(rep, lv) + "\n"})
	}
	if s := mdFunctionMap(rep); s != "" {
		chunks = append(chunks, mdChunk{text: s})
	}

	return chunks, total
}

// mdItem is one finding as a list item: its position, operator, function
// and description, what says of each of its levels, then tail.
func mdItem(f finding, what func(level string) string, tail string) mdChunk {
	var b strings.Builder
	fmt.Fprintf(&b, "- %s %s in %s: %s\n", codeSpan(position(f.M)), codeSpan(f.M.Operator), codeSpan(f.M.Function), mdEscape(f.M.Description))
	for _, l := range f.Levels {
		fmt.Fprintf(&b, "  - %s: %s\n", l, mdEscape(what(l)))
	}
	b.WriteString(tail)
	return mdChunk{text: b.String(), count: 1}
}

func truncNote(hidden, total, limit int) string {
	return fmt.Sprintf("\n> [!NOTE]\n> Truncated to fit a %d-character comment: %d of %d findings are not shown. The full list is in `report.txt` and `report.html` in the results directory.\n", limit, hidden, total)
}

// mdSurvivor renders one covered survivor with its diff and commands.
func mdSurvivor(rep *results.Report, n int, f finding, lv []string, dir string) string {
	m := f.M
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d. %s %s in %s: %s\n", n, codeSpan(position(m)), codeSpan(m.Operator), codeSpan(m.Function), mdEscape(m.Description))
	for _, l := range lv {
		r := m.Results[l]
		if r == nil {
			continue
		}
		if parts := testsByBenchmark(r.Benchmarks); len(parts) > 1 && (r.Status == score.Killed || r.Status == score.Survived) {
			fmt.Fprintf(&b, "   - %s: **%s**\n", l, r.Status)
			for _, p := range parts {
				fmt.Fprintf(&b, "     - %s\n", mdEscape(p))
			}
			continue
		}
		fmt.Fprintf(&b, "   - %s: **%s**, %s\n", l, r.Status, mdEscape(levelDetail(r)))
	}
	for _, l := range f.Levels {
		if s := metricText(rep, m.Results[l]); s != "" {
			fmt.Fprintf(&b, "   - metric (%s): %s\n", l, mdEscape(s))
		}
	}
	for _, l := range f.Levels {
		if e := explain(rep, m, l); e.Text != "" {
			fmt.Fprintf(&b, "   - why (%s): %s\n", l, mdEscape(e.Text))
		}
	}
	if e := explain(rep, m, f.Levels[0]); e.Hint != "" {
		fmt.Fprintf(&b, "   - hint: %s\n", mdEscape(e.Hint))
	}
	fmt.Fprintf(&b, "   - check: %s\n", codeSpan(reproduceCommand(rep, m, dir)))
	b.WriteString(mdGenerated(m, "   "))
	fmt.Fprintf(&b, "\n   <details><summary>diff and samples (%s)</summary>\n\n", m.ID)
	fence := codeFence(m.Diff)
	fmt.Fprintf(&b, "   %sdiff\n", fence)
	for _, line := range strings.Split(strings.TrimRight(m.Diff, "\n"), "\n") {
		b.WriteString("   " + line + "\n")
	}
	fmt.Fprintf(&b, "   %s\n", fence)
	var cmds []string
	for _, l := range f.Levels {
		cmds = append(cmds, benchstatCommands(m.Results[l], dir)...)
	}
	if len(cmds) > 0 {
		fence := codeFence(strings.Join(cmds, "\n"))
		fmt.Fprintf(&b, "\n   %ssh\n", fence)
		for _, c := range cmds {
			b.WriteString("   " + c + "\n")
		}
		fmt.Fprintf(&b, "   %s\n", fence)
	}
	b.WriteString("\n   </details>\n")
	return b.String()
}

// codeFence returns a backtick fence longer than any run in s.
func codeFence(s string) string { return strings.Repeat("`", max(3, longestRun(s, '`')+1)) }

// codeSpan returns s as inline code.
func codeSpan(s string) string {
	if s == "" {
		return ""
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "|", `\|`, "\n", " ",
)

// mdEscape makes plain text safe in Markdown (and in table cells).
func mdEscape(s string) string { return mdEscaper.Replace(s) }
