package results

import (
	"sort"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// SortMutants orders report mutants as mutate.Generate orders mutants, so
// a merged report lists them as an unsharded run does.
func SortMutants(ms []Mutant) {
	sort.SliceStable(ms, func(i, j int) bool { return mutate.Less(&ms[i].Mutant, &ms[j].Mutant) })
}

// LevelScores computes Report.Score from the mutants' results: undecided
// mutants are counted beside the score, outside its denominator.
func LevelScores(ms []Mutant, levels []string) map[string]LevelScore {
	out := map[string]LevelScore{}
	for _, l := range levels {
		var killed, survived, nocov, undecided int
		for _, m := range ms {
			r := m.Results[l]
			if r == nil {
				continue
			}
			switch r.Status {
			case score.Killed:
				killed++
			case score.Survived:
				survived++
			case score.NoCoverage:
				nocov++
			case score.Undecided:
				undecided++
			}
		}
		ls := LevelScore{Killed: killed, Valid: killed + survived + nocov, Undecided: undecided}
		if ls.Valid > 0 {
			ls.Score = float64(killed) / float64(ls.Valid)
		}
		if killed+survived > 0 {
			ls.Covered = float64(killed) / float64(killed+survived)
		}
		out[l] = ls
	}
	return out
}

// Outcomes turns the report's results into score.Summarize input.
func Outcomes(ms []Mutant) []score.Outcome {
	var out []score.Outcome
	for _, m := range ms {
		levels := make([]string, 0, len(m.Results))
		for l := range m.Results {
			levels = append(levels, l)
		}
		sort.Strings(levels)
		for _, l := range levels {
			r := m.Results[l]
			out = append(out, score.Outcome{
				ID: m.ID, Operator: m.Operator, Quadrant: string(m.Quadrant), Package: m.Package,
				Level: l, Status: r.Status, Tests: r.Benchmarks,
			})
		}
	}
	return out
}

// ReportLevels returns the levels that appear in the mutants' results, in
// report order (opt, noopt).
func ReportLevels(ms []Mutant) []string {
	var out []string
	for _, l := range []string{Opt, NoOpt} {
		for _, m := range ms {
			if m.Results[l] != nil {
				out = append(out, l)
				break
			}
		}
	}
	return out
}
