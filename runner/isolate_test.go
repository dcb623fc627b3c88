package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/score"
)

// TestIsolateCopy: with -isolate copy, a test that reads its package's
// source at run time sees the mutant (so the mutant is fne, where an
// overlay build would hide it), compile errors name the module's file,
// and the module is untouched.
func TestIsolateCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	mod, pkgs := testModule(t, "selfread")
	before := treeHash(t, mod.Dir)
	spin := mkMutant(t, mod, "double-spin", "example.com/selfread/lib", "lib/lib.go", "func Double(", "r += n", "r += n\n\t\tperfmut_sink++")
	spin.Helper = "package lib\n\nvar perfmut_sink int\n"
	bad := mkMutant(t, mod, "double-compile", "example.com/selfread/lib", "lib/lib.go", "func Double(", "r := 0", "r := perfmut_nope")
	bad.Helper, bad.HelperFile = "", ""
	c := newTestCampaign(t, mod, pkgs, nil, filepath.Join(t.TempDir(), "out"))
	c.Mutants = append(c.Mutants, spin, bad)
	c.Levels = []string{report.Opt}
	c.Isolate = IsolateCopy
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]*report.LevelResult{}
	for _, m := range rep.Mutants {
		res[m.ID] = m.Results[report.Opt]
	}
	if r := res["double-spin"]; r.Status != score.FNE || r.Reason != "failing tests: TestSourceUnchanged" {
		t.Errorf("double-spin: %s (%s), want fne from TestSourceUnchanged", r.Status, r.Reason)
	}
	if r := res["double-compile"]; r.Status != score.CompileError || !strings.HasPrefix(r.Reason, "lib/lib.go:8:7: undefined: perfmut_nope") {
		t.Errorf("double-compile: %s (%s), want compile-error at lib/lib.go:8:7", r.Status, r.Reason)
	}
	if treeHash(t, mod.Dir) != before {
		t.Errorf("the module changed")
	}
}
