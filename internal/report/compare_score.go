package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
)

// ScoreFor returns the score section of rep (read from dir) for the
// packages pkgs (import paths) and the changed files (module relative).
func ScoreFor(rep *results.Report, dir string, pkgs, changedFiles []string) *results.ScoreSection {
	sub := &results.Report{Settings: rep.Settings}
	for _, m := range rep.Mutants {
		if slices.Contains(pkgs, m.Package) {
			sub.Mutants = append(sub.Mutants, m)
		}
	}
	s := &results.ScoreSection{Dir: dir, Packages: []string{}, Levels: map[string]results.LevelScore{}, Survivors: []results.ScoreSurvivor{}}
	for _, m := range sub.Mutants {
		if !slices.Contains(s.Packages, m.Package) {
			s.Packages = append(s.Packages, m.Package)
		}
	}
	slices.Sort(s.Packages)
	levels := sub.Levels()
	for _, l := range levels {
		s.Levels[l] = levelScore(sub, l)
	}
	covered, _ := findings(sub, levels)
	slices.SortStableFunc(covered, func(a, b finding) int {
		ia, ib := slices.Contains(changedFiles, a.M.File), slices.Contains(changedFiles, b.M.File)
		switch {
		case ia && !ib:
			return -1
		case ib && !ia:
			return 1
		}
		return 0
	})
	s.Survived = len(covered)
	for _, f := range covered[:min(len(covered), results.MaxScoreSurvivors)] {
		tests := f.M.Results[f.Levels[0]].Benchmarks // the first level's: the levels measure the same benchmarks
		s.Survivors = append(s.Survivors, results.ScoreSurvivor{
			ID: f.M.ID, Operator: f.M.Operator, Position: position(f.M), Function: funcName(f.M),
			Levels: f.Levels, InChangedFile: slices.Contains(changedFiles, f.M.File), Tests: testsLine(tests),
		})
	}
	if rep.Module != "" && len(sub.Mutants) == 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("the results in %s have no mutant in the changed packages", dir))
	}
	return s
}

// scoreLine is "opt 72.0% (18 of 25 killed), noopt …".
func scoreLine(s *results.ScoreSection) string {
	var parts []string
	for _, l := range []string{results.Opt, results.NoOpt} {
		if ls, ok := s.Levels[l]; ok {
			parts = append(parts, fmt.Sprintf("%s %s (%d of %d killed)", l, pct(ls.Score), ls.Killed, ls.Valid))
		}
	}
	if len(parts) == 0 {
		return "no mutants"
	}
	return strings.Join(parts, ", ")
}

// writeScoreText writes the section for the terminal.
func writeScoreText(w io.Writer, s *results.ScoreSection) {
	fmt.Fprintf(w, "\nmutation score of the changed packages (%s, from %s): %s; %s\n",
		strings.Join(s.Packages, ", "), s.Dir, scoreLine(s), english.Plural(s.Survived, "covered survivor"))
	for _, v := range s.Survivors {
		mark := ""
		if v.InChangedFile {
			mark = " (changed file)"
		}
		fmt.Fprintf(w, "  %s %s %s %s%s: %s\n", v.ID, v.Operator, v.Position, v.Function, mark, v.Tests)
	}
	for _, x := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
}

// writeScoreMarkdown writes the section for the pull-request comment.
func writeScoreMarkdown(b *strings.Builder, s *results.ScoreSection) {
	fmt.Fprintf(b, "\n#### How far `same` can be trusted\n\nMutation score of the changed packages (%s): **%s**; %s (injected slowdowns a benchmark ran and did not notice).\n",
		mdEscape(strings.Join(s.Packages, ", ")), scoreLine(s), english.Plural(s.Survived, "covered survivor"))
	if len(s.Survivors) > 0 {
		b.WriteString("\n| Mutant | Operator | Position | Function | Benchmarks tried |\n|---|---|---|---|---|\n")
		for _, v := range s.Survivors {
			pos := mdEscape(v.Position)
			if v.InChangedFile {
				pos = "**" + pos + "**"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", v.ID, v.Operator, pos, mdEscape(v.Function), mdEscape(v.Tests))
		}
		if s.Survived > len(s.Survivors) {
			fmt.Fprintf(b, "\n%d more in `%s`.\n", s.Survived-len(s.Survivors), s.Dir)
		}
	}
	for _, x := range s.Warnings {
		fmt.Fprintf(b, "\n> ⚠️ %s\n", mdEscape(x))
	}
}
