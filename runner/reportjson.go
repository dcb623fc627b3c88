package runner

import (
	"sort"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// ReportFile is report.json in the output directory.
const ReportFile = "report.json"

// sortMutants orders report mutants as mutate.Generate orders mutants, so
// a merged report lists them as an unsharded run does.
func sortMutants(ms []results.Mutant) {
	sort.SliceStable(ms, func(i, j int) bool { return mutate.Less(&ms[i].Mutant, &ms[j].Mutant) })
}

// levelScores computes Report.Score from the mutants' results: undecided
// mutants are counted beside the score, outside its denominator.
func levelScores(ms []results.Mutant, levels []string) map[string]results.LevelScore {
	out := map[string]results.LevelScore{}
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
		ls := results.LevelScore{Killed: killed, Valid: killed + survived + nocov, Undecided: undecided}
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

// outcomes turns the report's results into score.Summarize input.
func outcomes(ms []results.Mutant) []score.Outcome {
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

// reportLevels returns the levels that appear in the mutants' results, in
// report order (opt, noopt).
func reportLevels(ms []results.Mutant) []string {
	var out []string
	for _, l := range []string{results.Opt, results.NoOpt} {
		for _, m := range ms {
			if m.Results[l] != nil {
				out = append(out, l)
				break
			}
		}
	}
	return out
}
