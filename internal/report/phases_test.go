package report

import (
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestSumPhases: a reused result's times belong to the earlier campaign,
// except a retested one's build and tests, which ran in this one.
func TestSumPhases(t *testing.T) {
	ms := []results.Mutant{
		{Results: map[string]*results.LevelResult{results.Opt: {Status: score.Killed, BuildSeconds: 1, TestSeconds: 2, MeasureSeconds: 4}}},
		{Results: map[string]*results.LevelResult{results.Opt: {Status: score.Killed, Reused: true, BuildSeconds: 8, TestSeconds: 16, MeasureSeconds: 32}}},
		{Results: map[string]*results.LevelResult{results.Opt: {Status: score.Survived, Reused: true, Retested: true, BuildSeconds: 64, TestSeconds: 128, MeasureSeconds: 256}}},
	}
	got := results.SumPhases(ms)[results.Opt]
	want := results.PhaseTimes{BuildSeconds: 65, TestSeconds: 130, MeasureSeconds: 4, Measured: 1, Reused: 2}
	if got != want {
		t.Errorf("SumPhases = %+v, want %+v", got, want)
	}
}
