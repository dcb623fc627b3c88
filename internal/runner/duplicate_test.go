package runner

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestEquivalentAndDuplicate: a dead computation the compiler removes is
// equivalent at opt and measured at noopt; two mutants written differently
// that compile to the same code are measured once, the other copies the
// result and names it.
func TestEquivalentAndDuplicate(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	t.Parallel() // its verdicts do not depend on the load (see newTestCampaign)
	mod, pkgs := testModule(t, "hot")
	const pkg, file = "example.com/hot/calc", "calc/calc.go"
	dead := mkMutant(t, mod, "sum-dead", pkg, file, "func Sum(", "s += x", "s += x\n\t\tperfmut_dead := x * 3\n\t\t_ = perfmut_dead")
	// Both nap in every iteration (see napHelper): killed by censoring.
	spinA := mkMutant(t, mod, "sum-spin-a", pkg, file, "func Sum(", "s += x", "s += x\n\t\tperfmut_nap()")
	spinB := mkMutant(t, mod, "sum-spin-b", pkg, file, "func Sum(", "s += x", "s += x\n\t\t(perfmut_nap)()")
	spinA.Helper, spinB.Helper = napHelper("calc"), napHelper("calc")
	c := newTestCampaign(t, mod, pkgs, append(hotMutants(t, mod)[:0:0], dead, spinA, spinB), filepath.Join(t.TempDir(), "out"))
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]map[string]*results.LevelResult{}
	for _, m := range rep.Mutants {
		res[m.ID] = m.Results
	}
	if r := res["sum-dead"]; r[results.Opt].Status != score.Equivalent || r[results.NoOpt].Status == score.Equivalent || r[results.NoOpt].MeasureSeconds == 0 {
		t.Errorf("sum-dead: opt %s, noopt %s (measured %.2fs); want equivalent at opt, measured at noopt",
			r[results.Opt].Status, r[results.NoOpt].Status, r[results.NoOpt].MeasureSeconds)
	}
	for _, l := range []string{results.Opt, results.NoOpt} {
		a, b := res["sum-spin-a"][l], res["sum-spin-b"][l]
		if a.Status != score.Killed || b.Status != score.Killed {
			t.Errorf("%s: spin statuses %s, %s; want killed", l, a.Status, b.Status)
		}
		first, dup := a, b
		if a.DuplicateOf != "" {
			first, dup = b, a
		}
		if first.DuplicateOf != "" || dup.DuplicateOf == "" || dup.MeasureSeconds != 0 || first.MeasureSeconds == 0 {
			t.Errorf("%s: duplicate_of %q and %q, measured %.2fs and %.2fs; want exactly one measured, the other its duplicate",
				l, a.DuplicateOf, b.DuplicateOf, a.MeasureSeconds, b.MeasureSeconds)
		}
	}
	if p := rep.Phases[results.Opt]; p.Equivalent != 1 || p.Duplicates != 1 {
		t.Errorf("opt phases %+v, want 1 equivalent and 1 duplicate", p)
	}
}
