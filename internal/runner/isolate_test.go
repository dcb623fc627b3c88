package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
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
	c.Levels = []string{results.Opt}
	c.Isolate = isolateCopy
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res := resultsAt(rep, results.Opt)
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

// TestIsolateCopyRestoreFails: a module copy that cannot be restored after
// a mutant is retired and replaced by a fresh copy of the module, so no
// later mutant is built with the earlier one's edit.
func TestIsolateCopyRestoreFails(t *testing.T) {
	mod := t.TempDir()
	if err := os.MkdirAll(filepath.Join(mod, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := []byte("package lib\n")
	os.WriteFile(filepath.Join(mod, "lib", "lib.go"), orig, 0o644)
	r := testRun(&Campaign{}, t.TempDir())
	r.isolate = isolateState{slots: make(chan string, 1)}
	r.c.Module.Dir = mod
	slot := filepath.Join(r.Tmp, "copy0")
	if err := copyTree(mod, slot, ""); err != nil {
		t.Fatal(err)
	}
	restore, err := r.writeToSlot(slot, map[string][]byte{filepath.Join(mod, "lib", "lib.go"): []byte("package lib // mutated\n")})
	if err != nil {
		t.Fatal(err)
	}
	// Break the copy so that the original cannot be written back.
	os.RemoveAll(filepath.Join(slot, "lib"))
	os.WriteFile(filepath.Join(slot, "lib"), nil, 0o644)
	rerr := restore()
	if rerr == nil {
		t.Fatal("restore succeeded on a broken copy")
	}
	if err := r.releaseSlot(slot, rerr); err != nil {
		t.Fatal(err)
	}
	fresh := <-r.isolate.slots
	if fresh == slot {
		t.Fatalf("the broken copy %s went back to the pool", slot)
	}
	if _, err := os.Stat(slot); err == nil {
		t.Errorf("the broken copy %s was not removed", slot)
	}
	if got, err := os.ReadFile(filepath.Join(fresh, "lib", "lib.go")); err != nil || string(got) != string(orig) {
		t.Errorf("fresh copy has lib.go = %q, %v; want the module's", got, err)
	}
}
