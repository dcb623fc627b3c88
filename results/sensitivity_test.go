package results

import (
	"fmt"
	"testing"
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// loopOps are operators with a LoopCost like spin-loop's and sleep's (1ns
// per iteration optimized, 2ns unoptimized; the duration) and one without.
var loopOps = []*mutate.Operator{
	{Name: "spin-loop", LoopCost: func(p map[string]any, optimized bool) (float64, bool) {
		n, ok := mutate.ParamNumber(p["iterations"])
		if !optimized {
			n *= 2
		}
		return n, ok
	}},
	{Name: "sleep", LoopCost: func(p map[string]any, _ bool) (float64, bool) {
		d, err := time.ParseDuration(fmt.Sprint(p["duration"]))
		return float64(d), err == nil
	}},
	{Name: "loop-unbreaker"},
}

func TestSensitivities(t *testing.T) {
	mk := func(line int, op string, params map[string]any, st map[string]score.Status) Mutant {
		m := Mutant{Mutant: mutate.Mutant{Operator: op, File: "a.go", Line: line, Column: 2, Function: "F", Params: params}, Results: map[string]*LevelResult{}}
		for l, s := range st {
			m.Results[l] = &LevelResult{Status: s}
		}
		return m
	}
	spin := func(n int) map[string]any { return map[string]any{"iterations": n} }
	ms := []Mutant{
		// line 10: 1e4 survives, 1e5 and 1e6 killed at opt; all killed at noopt
		mk(10, "spin-loop", spin(10000), map[string]score.Status{Opt: score.Survived, NoOpt: score.Killed}),
		mk(10, "spin-loop", spin(100000), map[string]score.Status{Opt: score.Killed, NoOpt: score.Killed}),
		mk(10, "spin-loop", spin(1000000), map[string]score.Status{Opt: score.Killed}),
		// line 20: nothing killed, sleep 1ms survives too
		mk(20, "spin-loop", spin(1000000), map[string]score.Status{Opt: score.Survived}),
		mk(20, "sleep", map[string]any{"duration": "1ms"}, map[string]score.Status{Opt: score.Survived}),
		// line 30: no coverage, and an operator without a size
		mk(30, "spin-loop", spin(10000), map[string]score.Status{Opt: score.NoCoverage}),
		mk(30, "loop-unbreaker", map[string]any{}, map[string]score.Status{Opt: score.Killed}),
	}
	rep := &Report{Mutants: ms}
	rep.SetOperators(loopOps)
	var got []string
	for _, s := range Sensitivities(rep.Mutants) {
		got = append(got, fmt.Sprintf("%d %s: %g %g %q", s.Line, s.Level, s.DetectedNanos, s.MissedNanos, s.Text))
	}
	want := []string{
		`10 noopt: 20000 0 ""`,
		`10 opt: 100000 10000 ""`,
		`20 opt: 0 1e+06 ""`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Sensitivities:\n got %q\nwant %q", got, want)
	}
}
