package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestGeneratedFix: a survivor and a no-coverage mutant that a
// generated benchmark kills show it, with the command that adds it to
// the module, in report.txt and report.md, and SARIF offers it as the
// fix; a mutant without one shows none.
func TestGeneratedFix(t *testing.T) {
	rep := fixture(t)
	g := &results.GeneratedKill{Benchmark: "BenchmarkPerfmutX", File: "perfmut-out/generate/p/perfmut_gen_test.go", Command: "cp -n perfmut-out/generate/p/perfmut_gen_test.go p/perfmut_gen_test.go"}
	marked := map[score.Status]bool{}
	for i := range rep.Mutants {
		m := &rep.Mutants[i]
		st := m.Results[results.Opt].Status
		if (st == score.Survived || st == score.NoCoverage) && !marked[st] {
			m.Generated = g
			marked[st] = true
		}
	}
	if !marked[score.Survived] || !marked[score.NoCoverage] {
		t.Fatalf("the fixture lacks a survivor or a no-coverage mutant")
	}
	want := "a generated benchmark kills it: BenchmarkPerfmutX in perfmut-out/generate/p/perfmut_gen_test.go; add it to the module with cp -n perfmut-out/generate/p/perfmut_gen_test.go p/perfmut_gen_test.go"
	wantMD := "a generated benchmark kills it: `BenchmarkPerfmutX` in `perfmut-out/generate/p/perfmut_gen_test.go`; add it to the module with `cp -n perfmut-out/generate/p/perfmut_gen_test.go p/perfmut_gen_test.go`"
	seen := 0
	for _, f := range Formats() {
		var b bytes.Buffer
		if err := f.Render(&b, rep, Options{Dir: "perfmut-out"}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		switch f.File {
		case "report.txt", "report.sarif":
			seen++
			if n := strings.Count(out, want); n != 2 {
				t.Errorf("%s offers the generated benchmark %d times, want 2 (the survivor and the no-coverage mutant)", f.File, n)
			}
		case "report.md":
			seen++
			if n := strings.Count(out, wantMD); n != 2 {
				t.Errorf("%s offers the generated benchmark %d times, want 2", f.File, n)
			}
		}
	}
	if seen != 3 {
		t.Errorf("checked %d of the formats report.txt, report.md, report.sarif", seen)
	}
}
