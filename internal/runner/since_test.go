package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestSince: a campaign with -since an earlier one reuses the results whose
// inputs did not change: all of them when nothing changed; after a
// benchmark file of app changes, the mutants app judged run again and
// calc's Find mutant (judged by calc alone) is reused; after calc changes
// outside a function, every calc mutant runs; after a function body
// changes, its mutants and those judged by a benchmark or test that runs
// it run (also app's, whose package did not change); with another Go
// version, everything runs.
func TestSince(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures modules")
	}
	t.Parallel() // its verdicts do not depend on the load (see newTestCampaign)
	mod, pkgs := testModule(t, "hot")
	const calc, app = "example.com/hot/calc", "example.com/hot/app"
	// Every measured mutant must be killed in every campaign, or -since
	// would measure it again: each naps (see napHelper) at its site, once
	// per call where a benchmark runs it, so that every sample is
	// censored, whatever the load.
	spin := func(id, pkg, file, anchor, old string) mutate.Mutant {
		m := mkMutant(t, mod, id, pkg, file, anchor, old, old+"\n\t\tperfmut_nap()")
		m.Helper = napHelper("calc")
		if pkg == app {
			m.Helper = napHelper("app")
			m.Edits[0].New = "perfmut_nap()\n\t" + old
		}
		return m
	}
	ms := []mutate.Mutant{
		spin("sum-spin", calc, "calc/calc.go", "func Sum(", "s := 0"),                       // judged by calc and app benchmarks
		spin("find-spin", calc, "calc/calc.go", "func Find(", "idx = i"),                    // calc only
		spin("unused-spin", calc, "calc/calc.go", "func Unused(", "p *= 3"),                 // no-coverage: every importer judges
		spin("prepare-spin", calc, "calc/calc.go", "func Prepare(", "xs := make([]int, n)"), // in benchmark setup only
		spin("total-spin", app, "app/app.go", "func Total(", "return 2 * calc.Sum(xs)"),
	}
	dir := t.TempDir()
	campaign := func(out, since string) (*results.Report, map[string]*results.LevelResult) {
		t.Helper()
		c := newTestCampaign(t, mod, pkgs, ms, filepath.Join(dir, out))
		c.Levels, c.Since = []string{results.Opt}, since
		if since != "" {
			c.Since = filepath.Join(dir, since)
		}
		rep, err := c.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		res := resultsAt(rep, results.Opt)
		return rep, res
	}
	reused := func(res map[string]*results.LevelResult) []string {
		var ids []string
		for id, r := range res {
			if r.Reused {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		return ids
	}

	_, first := campaign("first", "")
	want := map[string]score.Status{"sum-spin": score.Killed, "find-spin": score.Killed, "unused-spin": score.NoCoverage, "total-spin": score.Killed, "prepare-spin": score.NoCoverage}
	for id, st := range want {
		if first[id].Status != st {
			t.Fatalf("first run: %s is %s (%s), want %s", id, first[id].Status, first[id].Reason, st)
		}
	}
	if j := first["find-spin"].Judges; !slices.Equal(j, []string{calc}) {
		t.Errorf("find-spin judges %v, want [%s]", j, calc)
	}

	rep, again := campaign("again", "first")
	if got := reused(again); len(got) != 5 {
		t.Errorf("nothing changed: reused %v, want all 5", got)
	}
	if p := rep.Phases[results.Opt]; p.Reused != 5 || p.BuildSeconds != 0 || rep.Baseline != nil {
		t.Errorf("nothing changed: phases %+v, baseline %+v; want 4 reused, nothing built", p, rep.Baseline)
	}
	for _, s := range again["sum-spin"].Samples {
		if _, err := os.Stat(filepath.Join(dir, "again", s.Files[1])); err != nil {
			t.Errorf("reused sample file: %v", err)
		}
	}

	appendTo := func(file, text string) {
		f, err := os.OpenFile(filepath.Join(mod.Dir, file), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	appendTo("app/app_test.go", "\n// A changed benchmark file.\n")
	_, res := campaign("bench-changed", "first")
	if got := reused(res); !slices.Equal(got, []string{"find-spin"}) {
		t.Errorf("app's benchmark file changed: reused %v, want [find-spin]", got)
	}

	appendTo("calc/calc.go", "\n// A changed function.\n")
	_, res = campaign("calc-changed", "bench-changed")
	if got := reused(res); !slices.Equal(got, []string{"total-spin"}) {
		t.Errorf("calc changed: reused %v, want [total-spin]", got)
	}

	// A changed function body: its mutants run again, and those judged
	// by a benchmark or test that runs it; the others are reused.
	replaceIn := func(file, old, new string) {
		path := filepath.Join(mod.Dir, file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// BenchmarkFind runs Find and, in its setup, Prepare: it judges no
	// mutant of Prepare.
	replaceIn("calc/calc.go", "idx := -1", "idx := -2") // run by BenchmarkFind and TestFind
	_, res = campaign("find-changed", "calc-changed")
	if got, want := reused(res), []string{"prepare-spin", "sum-spin", "total-spin", "unused-spin"}; !slices.Equal(got, want) {
		t.Errorf("Find changed: reused %v, want %v", got, want)
	}
	// Prepare runs in the setup of every benchmark, also app's (whose
	// package did not change): only unused-spin's judge (TestUnused)
	// does not run it.
	replaceIn("calc/calc.go", "xs[i] = i", "xs[i] = 1")
	_, res = campaign("prepare-changed", "find-changed")
	if got := reused(res); !slices.Equal(got, []string{"unused-spin"}) {
		t.Errorf("Prepare changed: reused %v, want [unused-spin]", got)
	}

	// Another Go version: nothing is reused.
	path := filepath.Join(dir, "prepare-changed", ReportFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	json.Unmarshal(data, &raw)
	raw["inputs"].(map[string]any)["go"] = "go1.0"
	data, _ = json.Marshal(raw)
	os.WriteFile(path, data, 0o644)
	_, res = campaign("other-go", "prepare-changed")
	if got := reused(res); len(got) != 0 {
		t.Errorf("other Go version: reused %v, want none", got)
	}

	// Unused runs in TestUnused and TestTotalUnused, in no benchmark.
	// sum-spin and total-spin are measured by benchmarks that do not run
	// it but judged by TestTotalUnused, which does: they are built and
	// tested again, and keep their measured verdicts when the tests pass.
	replaceIn("calc/calc.go", "p := 1", "p := 1 // changed")
	_, res = campaign("unused-changed", "other-go")
	if got, want := reused(res), []string{"find-spin", "prepare-spin", "sum-spin", "total-spin"}; !slices.Equal(got, want) {
		t.Errorf("Unused changed: reused %v, want %v", got, want)
	}
	for id, want := range map[string]bool{"find-spin": false, "prepare-spin": false, "sum-spin": true, "total-spin": true} {
		if r := res[id]; r.Retested != want || want && (r.Status != score.Killed || r.BuildSeconds == 0 || r.TestSeconds == 0) {
			t.Errorf("Unused changed: %s is %s, retested %v (built %gs, tested %gs), want retested %v", id, r.Status, r.Retested, r.BuildSeconds, r.TestSeconds, want)
		}
	}
}
