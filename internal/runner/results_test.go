package runner

import (
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestReadResultsOperators: a report read back gives each mutant the
// operator its name says (nil for a name no operator has), as generating
// it did, and its loop sites' sensitivity is worded as when it was run.
func TestReadResultsOperators(t *testing.T) {
	dir := t.TempDir()
	killed := map[string]*results.LevelResult{results.Opt: {Status: score.Killed}}
	rep := &results.Report{Schema: results.Schema, Mutants: []results.Mutant{
		{Mutant: mutate.Mutant{ID: "a", Operator: "spin-loop", File: "f.go", Line: 3, Column: 2, Params: map[string]any{"iterations": 10000}}, Results: killed},
		{Mutant: mutate.Mutant{ID: "b", Operator: "no-such-operator", File: "f.go", Line: 4, Column: 2}, Results: killed},
	}}
	if err := results.WriteJSON(filepath.Join(dir, ReportFile), rep); err != nil {
		t.Fatal(err)
	}
	got, _, err := ReadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Mutants[0].Op != operators.SpinLoop || got.Mutants[1].Op != nil {
		t.Errorf("operators read back: %v, %v; want spin-loop, nil", got.Mutants[0].Op, got.Mutants[1].Op)
	}
	ss := sensitivities(got.Mutants)
	if len(ss) != 1 || ss[0].Text != "benchmarks notice +7µs per iteration here" {
		t.Errorf("sensitivities = %+v, want one site noticing +7µs", ss)
	}
}
