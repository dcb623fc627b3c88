package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// result is the job's result from the rule's verdict.
func (ms *measurement) result(v score.Verdict, skipped []Benchmark) *results.LevelResult {
	e, j, lr := ms.e, ms.j, ms.lr
	lr.Status, lr.Reason = verdictStatus(v, ms.rule)
	lr.Benchmarks = v.Tests
	if lr.Benchmarks == nil {
		lr.Benchmarks = []score.TestResult{}
	}
	if len(v.Warnings) > 0 && lr.Reason == "" {
		lr.Reason = strings.Join(v.Warnings, "; ")
	}
	if len(skipped) > 0 {
		lr.Reason = strings.TrimPrefix(lr.Reason+"; "+ms.skipNote(v, skipped), "; ")
		for _, b := range skipped {
			lr.Skipped = append(lr.Skipped, ms.names[b])
		}
	}
	if len(lr.Iterations) == 0 {
		lr.Iterations = nil
	}
	note := j.Note
	if len(ms.benches) != len(j.Benches) {
		note = "" // chosen from the pool, not by -max-benchmarks
	}
	for _, n := range []string{note, ms.choice.note(ms.names)} {
		if n != "" {
			lr.Reason = strings.TrimPrefix(lr.Reason+"; "+n, "; ")
		}
	}
	if lr.Status == score.Survived {
		if hint := survivorHint(e.pkgs, e.cfg.Rule, j.Mutant.Op, j.Mutant.Params, ms.benches, lr.Benchmarks); hint != "" {
			lr.Reason = strings.TrimPrefix(lr.Reason+"; "+hint, "; ")
		}
	}
	for _, b := range ms.benches {
		s := ms.series[b]
		for _, u := range s.units {
			sm := s.samples[u]
			lr.Samples = append(lr.Samples, results.SampleSet{
				Benchmark: sm.Benchmark, Metric: sm.Metric,
				Baseline: sm.Baseline, Mutant: sm.Mutant, Files: ms.files,
				MutantCensored: s.censored[u],
			})
		}
	}
	return lr
}

// verdictStatus maps the rule's final verdict to a status and its reason:
// Kill is killed, Survive (the data rule out the slowdown that matters)
// survived, and Abstain (the budget spent without ruling it out) or a
// Continue at the cap undecided, with what was seen.
func verdictStatus(v score.Verdict, rule score.Rule) (score.Status, string) {
	switch v.Decision {
	case score.Kill:
		return score.Killed, ""
	case score.Survive:
		return score.Survived, ""
	}
	if v.Decision == score.Abstain && v.Reason != "" {
		return score.Undecided, v.Reason // the bound, and what would decide it
	}
	return score.Undecided, fmt.Sprintf("undecided after %s (the -max-samples budget): no kill, and the data do not rule out a slowdown of x%g", english.Plural(rule.MaxSamples, "sample"), rule.Margin)
}

// skipNote says why the benchmarks skipped were not brought to the look
// that killed.
func (ms *measurement) skipNote(v score.Verdict, skipped []Benchmark) string {
	var names []string
	for _, b := range skipped {
		n := ms.names[b]
		if k := ms.series[b].rounds; k > 0 {
			n += fmt.Sprintf(" (%s)", english.Plural(k, "sample"))
		}
		names = append(names, n)
	}
	n := 0
	if len(v.Tests) > 0 {
		n = v.Tests[0].NBaseline
	}
	return fmt.Sprintf("killed at look %d (%d samples) before %s reached it: the rejecting test's level counts their tests in the family", v.Look, n, strings.Join(names, ", "))
}

// displayNames names each benchmark for the report: its name (with -N
// when it runs at a -cpu value N > 1, as go test prints it), qualified by
// its package's import path (path.Name) only where two packages'
// benchmarks share a name.
func displayNames(bs []Benchmark) map[Benchmark]string {
	count := map[string]int{}
	for _, b := range bs {
		count[b.CPUName()]++
	}
	out := map[Benchmark]string{}
	for _, b := range bs {
		out[b] = b.CPUName()
		if count[b.CPUName()] > 1 {
			out[b] = b.Pkg + "." + b.CPUName()
		}
	}
	return out
}

// sortedUnits returns the units of vals in report order: sec/op, B/op,
// allocs/op, then custom units by name.
func sortedUnits(vals map[string]float64) []string {
	rank := map[string]int{"sec/op": 0, "instructions/op": 0, "B/op": 1, "allocs/op": 2}
	units := make([]string, 0, len(vals))
	for u := range vals {
		units = append(units, u)
	}
	sort.Slice(units, func(i, j int) bool {
		ri, iok := rank[units[i]]
		rj, jok := rank[units[j]]
		if !iok {
			ri = 3
		}
		if !jok {
			rj = 3
		}
		if ri != rj {
			return ri < rj
		}
		return units[i] < units[j]
	})
	return units
}
