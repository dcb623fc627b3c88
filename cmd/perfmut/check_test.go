package main

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/mutate"
)

// TestAllMutantsCompile generates every mutant of operators.All for the
// demo module and for github.com/google/btree (copied out of the module
// cache), type-checks each one in-process, and builds one mutant per
// operator with go build -overlay.
func TestAllMutantsCompile(t *testing.T) {
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("demo", func(t *testing.T) { checkModule(t, demo, 9) })
	t.Run("btree", func(t *testing.T) {
		dir := downloadModule(t, "github.com/google/btree@v1.1.3")
		checkModule(t, dir, 5)
	})
}

// checkModule checks every mutant of the module at dir; at least minOps
// operators must have produced mutants.
func checkModule(t *testing.T, dir string, minOps int) {
	before := hashTree(t, dir)
	lf := loadFlags{load.Loader{Dir: dir}}
	ld, err := lf.Load(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	prog, mutants := ld.Program, ld.Mutants
	byOp := map[string][]mutate.Mutant{}
	for i, err := range prog.CheckAll(context.Background(), mutants) {
		m := mutants[i]
		if err != nil {
			t.Errorf("%s %s %s:%d: %v", m.ID, m.Operator, m.File, m.Line, err)
		}
		byOp[m.Operator] = append(byOp[m.Operator], m)
	}
	if len(byOp) < minOps {
		t.Errorf("only %d operators produced mutants (%v), want at least %d", len(byOp), keys(byOp), minOps)
	}
	t.Logf("%d mutants of %d operators type-check", len(mutants), len(byOp))
	if testing.Short() {
		t.Log("-short: skipping go build -overlay")
	} else {
		for _, op := range keys(byOp) {
			ms := byOp[op]
			m := ms[len(ms)/2]
			if err := buildOverlay(t, prog, m); err != nil {
				t.Errorf("%s %s %s:%d: %v", m.ID, m.Operator, m.File, m.Line, err)
			}
		}
	}
	if hashTree(t, dir) != before {
		t.Errorf("the module at %s changed", dir)
	}
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// buildOverlay builds (and vets, which type-checks the test files too) the
// mutant's package with go build -overlay.
func buildOverlay(t *testing.T, prog *mutate.Program, m mutate.Mutant) error {
	ov, err := prog.Overlay(m)
	if err != nil {
		return err
	}
	tmp := t.TempDir()
	replace := map[string]string{}
	for path, content := range ov {
		f := filepath.Join(tmp, fmt.Sprintf("%d-%s", len(replace), filepath.Base(path)))
		if err := os.WriteFile(f, content, 0o666); err != nil {
			return err
		}
		replace[path] = f
	}
	js, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return err
	}
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, js, 0o666); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"build", "-overlay", ovFile, "-o", os.DevNull, m.Package},
		{"vet", "-overlay", ovFile, m.Package},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = prog.Module.Dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %v\n%s", strings.Join(args[:2], " "), err, out)
		}
	}
	return nil
}

// downloadModule copies module@version out of the module cache (downloading
// it if needed) into a writable temporary directory, or skips the test.
func downloadModule(t *testing.T, modVersion string) string {
	cmd := exec.Command("go", "mod", "download", "-json", modVersion)
	cmd.Dir = t.TempDir() // outside any module: go.mod and go.sum stay as they are
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &info)
	}
	if err != nil || info.Dir == "" {
		t.Skipf("cannot download %s (no network or proxy?): %v %s", modVersion, err, info.Error)
	}
	dir := filepath.Join(t.TempDir(), "mod")
	if err := os.CopyFS(dir, os.DirFS(info.Dir)); err != nil {
		t.Fatal(err)
	}
	err = filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chmod(path, fi.Mode()|0o200)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestCheckAllReportsFailures runs list -check's core with an operator
// whose mutants do not compile.
func TestCheckAllReportsFailures(t *testing.T) {
	broken := &mutate.Operator{
		Name:     "test-undefined",
		Quadrant: mutate.Q4,
		Run: func(pass *mutate.Pass) {
			tf := pass.Fset.File(pass.File.FileStart)
			ast.Inspect(pass.File, func(n ast.Node) bool {
				if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
					r := ret.Results[0]
					pass.Report(mutate.Site{Node: ret, Description: "return an undefined name",
						Edits: []mutate.Edit{{Start: tf.Offset(r.Pos()), End: tf.Offset(r.End()), New: "undefinedName"}}})
				}
				return true
			})
		},
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(dir, "m.go"), "package m\n\nfunc F() int {\n\treturn 1\n}\n\nfunc G() int {\n\treturn 2\n}\n")
	prog, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Operators: []*mutate.Operator{broken}})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := prog.Generate()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	err = load.CheckMutants(context.Background(), &stderr, prog, ms)
	if err == nil || err.Error() != "2 of 2 mutants do not type-check" {
		t.Errorf("CheckMutants error = %v", err)
	}
	want := fmt.Sprintf("FAIL %s test-undefined m.go:4: does not type-check: m.go:4:9: undefined: undefinedName\nFAIL %s test-undefined m.go:8: does not type-check: m.go:8:9: undefined: undefinedName\n", ms[0].ID, ms[1].ID)
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
}
