package report

import (
	"cmp"
	"slices"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Options controls the human-readable renderings.
type Options struct {
	// Levels restricts the optimization levels shown; nil means every level
	// in the report.
	Levels []string

	// Dir is the output directory that holds the raw benchfmt files, as it
	// should appear in the printed benchstat commands ("" = paths relative
	// to the output directory).
	Dir string

	// MaxBytes caps the Markdown rendering (0 = GitHubCommentLimit).
	MaxBytes int

	// PathPrefix is prepended to module-relative file names in SARIF, for
	// modules that live in a sub-directory of the repository (e.g. "go/").
	PathPrefix string

	// SourceDir is the module root used to embed source files in
	// mutation-testing-elements JSON ("" = Report.ModuleDir).
	SourceDir string
}

// levels returns the optimization levels to show: opts.Levels if set,
// else those present in rep, opt first.
func levels(rep *results.Report, opts Options) []string {
	if len(opts.Levels) > 0 {
		return opts.Levels
	}
	if l := rep.Levels(); len(l) > 0 {
		return l
	}
	return []string{results.Opt} // an empty report still renders its (empty) tables
}

// A finding is a mutant that no benchmark noticed at one or more levels.
type finding struct {
	M       *results.Mutant
	Levels  []string // the levels at which it survived (or had no coverage)
	Covered bool     // survived (a benchmark ran it) rather than no-coverage
	// undecided: listed for its undecided levels (Levels), measured to the
	// sample budget without a verdict.
	undecided bool
}

// findings ranks the mutants nobody noticed: covered survivors first (the
// hard-to-kill findings), those that survived at more levels before
// others, then by the largest median ratio measured (the biggest slowdown
// the benchmarks missed), then by position. No-coverage ones follow,
// grouped by package and function (larger groups first), then position.
func findings(rep *results.Report, levels []string) (covered []finding, uncovered [][]finding) {
	groups := map[[2]string][]finding{}
	for i := range rep.Mutants {
		m := &rep.Mutants[i]
		var surv, nocov []string
		for _, l := range levels {
			switch m.Status(l) {
			case score.Survived:
				surv = append(surv, l)
			case score.NoCoverage:
				nocov = append(nocov, l)
			}
		}
		switch {
		case len(surv) > 0:
			covered = append(covered, finding{M: m, Levels: surv, Covered: true})
		case len(nocov) > 0:
			k := [2]string{m.Package, m.Function}
			groups[k] = append(groups[k], finding{M: m, Levels: nocov})
		}
	}
	slices.SortStableFunc(covered, func(a, b finding) int {
		if c := cmp.Compare(len(b.Levels), len(a.Levels)); c != 0 {
			return c
		}
		if c := cmp.Compare(maxRatio(b), maxRatio(a)); c != 0 {
			return c
		}
		return comparePos(a.M, b.M)
	})
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b finding) int { return comparePos(a.M, b.M) })
		uncovered = append(uncovered, g)
	}
	slices.SortFunc(uncovered, func(a, b []finding) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		if c := cmp.Compare(a[0].M.Package, b[0].M.Package); c != 0 {
			return c
		}
		return cmp.Compare(a[0].M.Function, b[0].M.Function)
	})
	return covered, uncovered
}

// undecidedFindings are the mutants undecided at one or more of levels,
// by position: measured to the sample budget without a kill or a
// slowdown ruled out.
func undecidedFindings(rep *results.Report, levels []string) []finding {
	var out []finding
	for i := range rep.Mutants {
		m := &rep.Mutants[i]
		var at []string
		for _, l := range levels {
			if m.Status(l) == score.Undecided {
				at = append(at, l)
			}
		}
		if len(at) > 0 {
			out = append(out, finding{M: m, Levels: at, Covered: true, undecided: true})
		}
	}
	slices.SortStableFunc(out, func(a, b finding) int { return comparePos(a.M, b.M) })
	return out
}

// maxRatio is the largest median ratio among f's tests at its levels.
func maxRatio(f finding) float64 {
	r := 0.0
	for _, l := range f.Levels {
		for _, t := range f.M.Results[l].Benchmarks {
			r = max(r, t.Ratio)
		}
	}
	return r
}

func comparePos(a, b *results.Mutant) int {
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Column, b.Column); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// statusCounts counts the mutants per status at level.
func statusCounts(rep *results.Report, level string) map[score.Status]int {
	c := map[score.Status]int{}
	for i := range rep.Mutants {
		if s := rep.Mutants[i].Status(level); s != "" {
			c[s]++
		}
	}
	return c
}

// opRow is one operator's score at one level.
type opRow struct {
	Operator string
	Quadrant string
	score.Counts
}

// operatorScores returns, per operator (sorted by name), the killed and
// valid counts at each level, computed from the mutants' statuses.
func operatorScores(rep *results.Report, levels []string) (ops []string, rows map[string]map[string]opRow) {
	rows = map[string]map[string]opRow{}
	for i := range rep.Mutants {
		m := &rep.Mutants[i]
		if rows[m.Operator] == nil {
			rows[m.Operator] = map[string]opRow{}
			ops = append(ops, m.Operator)
		}
		for _, l := range levels {
			s := m.Status(l)
			r := rows[m.Operator][l]
			r.Operator, r.Quadrant = m.Operator, string(m.Quadrant)
			r.Add(s)
			rows[m.Operator][l] = r
		}
	}
	slices.Sort(ops)
	return ops, rows
}

// levelScore returns the score at level from rep.Score, or computed from
// the statuses when the report has none for it.
func levelScore(rep *results.Report, level string) results.LevelScore {
	if s, ok := rep.Score[level]; ok {
		return s
	}
	var statuses []score.Status
	undecided := 0
	for i := range rep.Mutants {
		if s := rep.Mutants[i].Status(level); s != "" {
			statuses = append(statuses, s)
		}
		if rep.Mutants[i].Status(level) == score.Undecided {
			undecided++
		}
	}
	c := score.CountStatuses(statuses)
	return results.LevelScore{Killed: c.Killed, Valid: c.Valid, Score: c.Score, Covered: c.CoveredScore, Undecided: undecided}
}
