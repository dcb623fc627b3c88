package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Text writes the terminal summary: the score per level, a table by
// operator and level, the count of every status, and the mutants no
// benchmark noticed, ranked (covered survivors first, then no-coverage
// ones grouped by function), each with the benchmarks tried and the
// benchstat command that shows its raw samples.
func Text(w io.Writer, rep *results.Report, opts Options) error {
	bw := bufio.NewWriter(w)
	lv := levels(rep, opts)

	fmt.Fprintf(bw, "perfmut report for %s: %s", orUnknown(rep.Module), english.Plural(len(rep.Mutants), "mutant"))
	if rep.Go != "" {
		fmt.Fprintf(bw, ", %s", rep.Go)
	}
	fmt.Fprintln(bw)
	if s := settingsLine(rep); s != "" {
		fmt.Fprintf(bw, "  %s\n", s)
	}
	if s := runSpan(rep); s != "" {
		fmt.Fprintf(bw, "  ran %s\n", s)
	}
	for _, s := range noiseLines(rep) {
		fmt.Fprintf(bw, "  %s\n", s)
	}

	textTables(bw, rep, lv)
	textChangedFunctions(bw, rep)
	covered, uncovered := findings(rep, lv)
	gaps, faster := splitFaster(rep, covered)
	textSurvivors(bw, rep, gaps, lv, opts.Dir)
	if len(faster) > 0 {
		fmt.Fprintf(bw, "\nFaster: %s ran faster than the original, so no benchmark gap: the path each disables is slower than the one it forces:\n", english.Plural(len(faster), "surviving mutant"))
		for _, f := range faster {
			m := f.M
			fmt.Fprintf(bw, "\n     %s  %s  %s  [%s]\n", position(m), m.Operator, m.Function, m.ID)
			fmt.Fprintf(bw, "     %s\n", m.Description)
			for _, l := range f.Levels {
				fmt.Fprintf(bw, "     %-6s %s\n", l, explain(rep, m, l).Text)
			}
		}
	}
	und := undecidedFindings(rep, lv)
	textUndecided(bw, rep, und, opts.Dir)
	textUncovered(bw, uncovered)
	if len(covered) == 0 && len(uncovered) == 0 && len(und) == 0 && len(rep.Mutants) > 0 {
		fmt.Fprintf(bw, "\n%s\n", allKilledLine(rep, lv))
	}
	textFunctionMap(bw, rep)
	return bw.Flush()
}

// textTables writes the score, operator and status tables.
func textTables(bw io.Writer, rep *results.Report, lv []string) {
	fmt.Fprintln(bw, "\nMutation score (killed / (killed + survived + no-coverage)):")
	t := &table{indent: "  "}
	t.add("level", "killed", "valid", "score", "covered", "undecided")
	for _, l := range lv {
		s := levelScore(rep, l)
		t.add(l, fmt.Sprint(s.Killed), fmt.Sprint(s.Valid), scorePct(s.Score, s.Valid), coveredPct(rep, l), fmt.Sprint(s.Undecided))
	}
	t.write(bw)
	fmt.Fprintf(bw, "  %s\n", scoreLegend(rep, lv))
	if s := undecidedLegend(rep, lv); s != "" {
		fmt.Fprintf(bw, "  %s\n", s)
	}

	fmt.Fprintln(bw, "\nBy operator (killed/valid):")
	ops, rows := operatorScores(rep, lv)
	t = &table{indent: "  "}
	head := []string{"operator", ""}
	for _, l := range lv {
		head = append(head, l, "")
	}
	t.add(head...)
	for _, op := range ops {
		row := []string{op, rows[op][lv[0]].Quadrant}
		for _, l := range lv {
			r := rows[op][l]
			if r.Valid == 0 {
				row = append(row, "0/0", "-")
				continue
			}
			row = append(row, fmt.Sprintf("%d/%d", r.Killed, r.Valid), pct(r.Score))
		}
		t.add(row...)
	}
	t.write(bw)

	fmt.Fprintln(bw, "\nStatuses:")
	t = &table{indent: "  "}
	t.add(append([]string{"status"}, lv...)...)
	counts := map[string]map[score.Status]int{}
	for _, l := range lv {
		counts[l] = statusCounts(rep, l)
	}
	for _, s := range score.Statuses {
		row := []string{string(s)}
		for _, l := range lv {
			row = append(row, fmt.Sprint(counts[l][s]))
		}
		t.add(row...)
	}
	t.write(bw)
	nm := countNotMeasured(rep, lv)
	if len(nm.ops) > 0 {
		fmt.Fprintln(bw, "\nNot measured, by operator (equivalent to the baseline's code / duplicate of another mutant's):")
		t = &table{indent: "  "}
		for _, row := range nm.rows(lv) {
			t.add(row...)
		}
		t.write(bw)
	}
	if s := nm.reusedLine(lv); s != "" {
		fmt.Fprintf(bw, "\n%s.\n", s)
	}

}

// textSurvivors writes the covered survivors, each with its results,
// explanation, hint and the benchstat commands that show its samples.
func textSurvivors(bw io.Writer, rep *results.Report, gaps []finding, lv []string, dir string) {
	if len(gaps) == 0 {
		return
	}
	fmt.Fprintf(bw, "\nSurvivors: %s a benchmark ran without noticing (hardest first):\n", english.Plural(len(gaps), "mutant"))
	for i, f := range gaps {
		m := f.M
		fmt.Fprintf(bw, "\n%3d. %s  %s  %s  [%s]\n", i+1, position(m), m.Operator, m.Function, m.ID)
		fmt.Fprintf(bw, "     %s\n", m.Description)
		for _, l := range lv {
			r := m.Results[l]
			if r == nil {
				continue
			}
			if parts := testsByBenchmark(r.Benchmarks); len(parts) > 1 && (r.Status == score.Killed || r.Status == score.Survived) {
				fmt.Fprintf(bw, "     %-6s %s\n", l, r.Status)
				for _, p := range parts {
					fmt.Fprintf(bw, "              %s\n", p)
				}
				continue
			}
			fmt.Fprintf(bw, "     %-6s %-9s %s\n", l, r.Status, levelDetail(r))
		}
		for _, l := range f.Levels {
			if s := metricText(rep, m.Results[l]); s != "" {
				fmt.Fprintf(bw, "     metric %s: %s\n", l, s)
			}
		}
		for _, l := range f.Levels {
			if e := explain(rep, m, l); e.Text != "" {
				fmt.Fprintf(bw, "     why %s: %s\n", l, e.Text)
			}
		}
		if e := explain(rep, m, f.Levels[0]); e.Hint != "" {
			fmt.Fprintf(bw, "     hint: %s\n", e.Hint)
		}
		textCommands(bw, rep, f, dir)
		if s := generatedLine(m); s != "" {
			fmt.Fprintf(bw, "     fix: %s\n", s)
		}
	}
}

// textCommands writes the commands that check a finding's verdict: perfmut
// reproduce, which measures both sides again, and the benchstat commands
// that show the samples perfmut took.
func textCommands(bw io.Writer, rep *results.Report, f finding, dir string) {
	fmt.Fprintf(bw, "     check: %s\n", reproduceCommand(rep, f.M, dir))
	for _, l := range f.Levels {
		for _, c := range benchstatCommands(f.M.Results[l], dir) {
			fmt.Fprintf(bw, "     samples %s: %s\n", l, c)
		}
	}
}

// textUndecided writes the mutants measured to the budget without a
// verdict, each with its reason.
func textUndecided(bw io.Writer, rep *results.Report, und []finding, dir string) {
	if len(und) == 0 {
		return
	}
	fmt.Fprintf(bw, "\nUndecided: %s measured to -max-samples without a kill or a slowdown ruled out (outside the score):\n", english.Plural(len(und), "mutant"))
	for _, f := range und {
		m := f.M
		fmt.Fprintf(bw, "\n     %s  %s  %s  [%s]\n", position(m), m.Operator, m.Function, m.ID)
		fmt.Fprintf(bw, "     %s\n", m.Description)
		for _, l := range f.Levels {
			fmt.Fprintf(bw, "     %-6s %s\n", l, firstLine(m.Results[l].Reason))
			if s := metricText(rep, m.Results[l]); s != "" {
				fmt.Fprintf(bw, "     metric %s: %s\n", l, s)
			}
		}
		fmt.Fprintf(bw, "     check: %s\n", reproduceCommand(rep, m, dir))
	}
}

// textUncovered writes the mutants no benchmark reaches, by function.
func textUncovered(bw io.Writer, uncovered [][]finding) {
	if len(uncovered) == 0 {
		return
	}
	n := 0
	for _, g := range uncovered {
		n += len(g)
	}
	fmt.Fprintf(bw, "\nNo coverage: %s no benchmark reaches, by function:\n", english.Plural(n, "mutant"))
	for _, g := range uncovered {
		fmt.Fprintf(bw, "\n  %s (%d)\n", funcName(g[0].M), len(g))
		for _, f := range g {
			m := f.M
			fmt.Fprintf(bw, "    %s  %s  %s  [%s]\n", position(m), m.Operator, m.Description, m.ID)
			if r := m.Results[f.Levels[0]]; r.Reason != "" && !strings.HasPrefix(r.Reason, "no benchmark ") {
				fmt.Fprintf(bw, "      %s\n", firstLine(r.Reason))
			}
			if s := generatedLine(m); s != "" {
				fmt.Fprintf(bw, "      fix: %s\n", s)
			}
		}
	}
}

// levelDetail is the part of a mutant's line after its status: the tests
// for measured statuses, the reason for the others.
func levelDetail(r *results.LevelResult) string {
	switch r.Status {
	case score.Killed, score.Survived:
		return testsLine(r.Benchmarks)
	}
	return firstLine(r.Reason)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown module)"
	}
	return s
}

// WriteScores prints one line per level: the mutation score and the count
// of every status (perfmut run's and merge's summary).
func WriteScores(w io.Writer, rep *results.Report) {
	for _, l := range []string{results.Opt, results.NoOpt} {
		s, ok := rep.Score[l]
		if !ok {
			continue
		}
		counts := statusCounts(rep, l)
		var parts []string
		for _, st := range score.Statuses {
			if counts[st] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
			}
		}
		if s.Valid == 0 {
			// Nothing to score (and Gate passes it): not 0%.
			fmt.Fprintf(w, "%-5s score     - (no valid mutants)", l)
			if len(parts) > 0 {
				fmt.Fprintf(w, ": %s", strings.Join(parts, ", "))
			}
			fmt.Fprintln(w)
			continue
		}
		among := ""
		if c := coveredPct(rep, l); c != "-" {
			among = "; killed among covered " + c
		}
		fmt.Fprintf(w, "%-5s score %5.1f%% (%d killed of %d valid%s): %s\n",
			l, 100*s.Score, s.Killed, s.Valid, among, strings.Join(parts, ", "))
		if s.Undecided > 0 {
			fmt.Fprintf(w, "%-5s %s\n", "", undecidedLine(s.Undecided))
		}
	}
}

// undecidedLine is the line that counts a level's undecided mutants.
func undecidedLine(n int) string {
	return fmt.Sprintf("undecided %d (outside the score): no kill within -max-samples, and too noisy to rule out a slowdown; perfmut report lists them", n)
}
