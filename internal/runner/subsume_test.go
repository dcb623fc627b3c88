package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

func TestSubsumers(t *testing.T) {
	at := func(id string, op *mutate.Operator, line int, params map[string]any) mutate.Mutant {
		return mutate.Mutant{ID: id, Operator: op.Name, Op: op, Package: "p", File: "f.go", Function: "F", Line: line, Column: 2, Params: params}
	}
	ms := []mutate.Mutant{
		at("s6", operators.SpinLoop, 10, map[string]any{"iterations": 1000000}),
		at("s4", operators.SpinLoop, 10, map[string]any{"iterations": 10000}),
		at("s5", operators.SpinLoop, 10, map[string]any{"iterations": 100000}),
		at("other-line", operators.SpinLoop, 11, map[string]any{"iterations": 100000}),
		at("sl1", operators.Sleep, 10, map[string]any{"duration": operators.Duration(1e6)}),
		at("sl2", operators.Sleep, 10, map[string]any{"duration": "2ms"}),
		at("ub", operators.LoopUnbreaker, 10, map[string]any{}),
		at("a1", operators.AllocChurn, 10, map[string]any{"bytes": 1024}),
		at("sl-short", operators.Sleep, 11, map[string]any{"duration": "1ms"}),
	}
	got := subsumers(ms)
	// The smallest sleep at line 10 (1ms) follows the 1e4 spin-loop there
	// (1e4 x 1.4 ns x 16 = 0.22 ms <= 1 ms; 1e5 would be 2.2 ms); at line 11
	// the 1e5 spin-loop is too dear for the 1ms sleep.
	want := map[string]string{"s5": "s4", "s6": "s5", "sl2": "sl1", "sl1": "s4"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("subsumers = %v, want %v", got, want)
	}
	// Waves: s4 first; s5 and sl1 after it; s6 and sl2 after those. With
	// s4 done already (not in todo), s5 is in the first wave.
	w := waves(ms, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, got)
	if fmt.Sprint(w) != "[[1 3 6 7 8] [2 4] [0 5]]" {
		t.Errorf("waves = %v", w)
	}
	if w := waves(ms, []int{0, 2}, got); fmt.Sprint(w) != "[[2] [0]]" {
		t.Errorf("waves without s4 = %v", w)
	}
}

// TestSubsumption: the 1e5 and 1e6 spin-loop mutants of a site whose 1e4
// mutant is killed are killed by inference, without measurement; with
// Infer off every one is measured.
func TestSubsumption(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	t.Parallel() // its verdicts do not depend on the load (see newTestCampaign)
	for _, infer := range []bool{true, false} {
		t.Run(fmt.Sprint("infer=", infer), func(t *testing.T) {
			mod, pkgs := testModule(t, "hot")
			var ms []mutate.Mutant
			for _, n := range []int{1000000, 10000, 100000} {
				spin := fmt.Sprintf("for _, x := range xs {\n\t\tfor perfmut_i := 0; perfmut_i < %d; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}", n/100)
				m := mkMutant(t, mod, fmt.Sprintf("spin-%d", n), "example.com/hot/calc", "calc/calc.go", "func Sum(", "for _, x := range xs {", spin)
				m.Operator, m.Op, m.Params = "spin-loop", operators.SpinLoop, map[string]any{"iterations": n}
				ms = append(ms, m)
			}
			c := newTestCampaign(t, mod, pkgs, ms, filepath.Join(t.TempDir(), "out"))
			c.Levels = []string{results.Opt}
			c.Benchtime, c.SampleTime, c.CensorFactor, c.Infer = "", engine.DefaultSampleTime/2, 3, infer
			c.Rule = score.Rule{MaxSamples: 5, Seed: 1}
			rep, err := c.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			res := resultsAt(rep, results.Opt)
			for id, from := range map[string]string{"spin-10000": "", "spin-100000": "spin-10000", "spin-1000000": "spin-100000"} {
				r := res[id]
				if r.Status != score.Killed {
					t.Errorf("%s: %s (%s), want killed", id, r.Status, r.Reason)
				}
				if !infer {
					from = ""
				}
				if r.InferredFrom != from {
					t.Errorf("%s: inferred from %q, want %q", id, r.InferredFrom, from)
				}
				if measured := len(r.Samples) > 0; measured != (from == "") {
					t.Errorf("%s: measured %v, want %v", id, measured, from == "")
				}
				// No test runs on an inert spin-loop: an inferred kill
				// is not even built.
				if built := r.BuildSeconds > 0; built != (from == "") {
					t.Errorf("%s: built %v (%gs), want %v", id, built, r.BuildSeconds, from == "")
				}
			}
		})
	}
}

// TestInferredAcrossOperators: a sleep at a loop whose 1e4 spin-loop was
// killed is an inferred kill, with a reason naming the spin-loop; not
// while the spin-loop is unjudged or survived, nor with Infer off.
func TestInferredAcrossOperators(t *testing.T) {
	at := func(id string, op *mutate.Operator, desc string, params map[string]any) mutate.Mutant {
		return mutate.Mutant{ID: id, Operator: op.Name, Op: op, Description: desc, Package: "p", File: "f.go", Function: "F", Line: 10, Column: 2, Params: params}
	}
	spin := at("spin", operators.SpinLoop, "spin 10000 iterations per loop iteration", map[string]any{"iterations": 10000})
	sleep := at("sleep", operators.Sleep, "sleep 1ms per loop iteration", map[string]any{"duration": "1ms"})
	c := &Campaign{Mutants: []mutate.Mutant{spin, sleep}, Infer: true}
	r := newRun(c)
	r.dedup.subsumer = subsumers(c.Mutants)
	if lr := r.dedup.inferred(r.c, r.result, sleep, results.Opt); lr != nil {
		t.Fatalf("spin-loop not judged yet: %+v, want nil", lr)
	}
	r.results[resultKey{"spin", results.Opt}] = &results.LevelResult{Status: score.Survived}
	if lr := r.dedup.inferred(r.c, r.result, sleep, results.Opt); lr != nil {
		t.Fatalf("spin-loop survived: %+v, want nil", lr)
	}
	r.results[resultKey{"spin", results.Opt}] = &results.LevelResult{Status: score.Killed}
	lr := r.dedup.inferred(r.c, r.result, sleep, results.Opt)
	want := "inferred from spin: spin 10000 iterations per loop iteration at the same loop was killed, and it costs at most a 16th of this sleep per execution"
	if lr == nil || lr.Status != score.Killed || lr.InferredFrom != "spin" || lr.Reason != want || len(lr.Samples) != 0 {
		t.Fatalf("spin-loop killed: %+v, want killed inferred from spin: %q", lr, want)
	}
	c.Infer = false
	if lr := r.dedup.inferred(r.c, r.result, sleep, results.Opt); lr != nil {
		t.Fatalf("-infer=false: %+v, want nil", lr)
	}
}
