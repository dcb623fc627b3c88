package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestNotMeasured: the text and Markdown reports count, per operator and
// level, the mutants compiled to the baseline's code and the duplicates,
// and say how many results an incremental campaign reused.
func TestNotMeasured(t *testing.T) {
	mut := func(id, op string, opt, noopt results.LevelResult) results.Mutant {
		return results.Mutant{Mutant: mutate.Mutant{ID: id, Operator: op, Quadrant: mutate.Q3, File: "a.go", Line: 1},
			Results: map[string]*results.LevelResult{results.Opt: &opt, results.NoOpt: &noopt}}
	}
	killed := results.LevelResult{Status: score.Killed}
	rep := &results.Report{Module: "example.com/m", Mutants: []results.Mutant{
		mut("a", "spin-loop", results.LevelResult{Status: score.Equivalent}, killed),
		mut("b", "spin-loop", results.LevelResult{Status: score.Killed, DuplicateOf: "c"}, results.LevelResult{Status: score.Killed, DuplicateOf: "c"}),
		mut("c", "spin-loop", killed, killed),
		mut("d", "oblivion", results.LevelResult{Status: score.Equivalent}, results.LevelResult{Status: score.Survived, Reused: true}),
		mut("e", "sleep", killed, killed),
	}}
	var txt, md bytes.Buffer
	if err := Text(&txt, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	want := `
Not measured, by operator (equivalent to the baseline's code / duplicate of another mutant's):
  operator   opt  noopt
  oblivion   1/0    0/0
  spin-loop  1/1    0/1

Reused from an earlier campaign (-since), nothing they depend on changed: noopt 1.
`
	if !strings.Contains(txt.String(), want) {
		t.Errorf("text report lacks\n%s\ngot:\n%s", want, txt.String())
	}
	if err := writeMarkdown(&md, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	wantMD := "| operator | opt | noopt |\n|---|--:|--:|\n| oblivion | 1/0 | 0/0 |\n| spin-loop | 1/1 | 0/1 |\n"
	if !strings.Contains(md.String(), wantMD) {
		t.Errorf("markdown report lacks\n%s\ngot:\n%s", wantMD, md.String())
	}
}
