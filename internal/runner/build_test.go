package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
)

// TestGoTestCNoVet: a package go vet rejects (a Printf verb that does not
// match its argument) still gets its test binary: a mutant is judged by
// the compiler, its tests and its benchmarks, not by vet.
func TestGoTestCNoVet(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/vet\n\ngo 1.22\n",
		"v.go":      "package vet\n\nimport \"fmt\"\n\nfunc S() string { return fmt.Sprintf(\"%d\", \"x\") }\n",
		"v_test.go": "package vet\n\nimport \"testing\"\n\nfunc TestS(t *testing.T) { S() }\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := testRun(&Campaign{}, "")
	bin := filepath.Join(t.TempDir(), "vet.test")
	ok, err := r.GoTestC(context.Background(), dir, "example.com/vet", bin, "", "")
	if err != nil || !ok {
		t.Fatalf("goTestC = %v, %v; want a binary", ok, err)
	}
}

// TestWriteOverlayNames: the replacer maps an overlay file's temporary
// path to the module-relative name it stands for, in both spellings the go
// command uses in its messages: absolute, and relative to the module root
// when that is shorter (a temporary directory next to the module).
func TestWriteOverlayNames(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "mod")
	tmp := filepath.Join(base, "run")
	for _, d := range []string{filepath.Join(root, "sum"), tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_, names, err := engine.WriteOverlay(tmp, root, map[string][]byte{filepath.Join(root, "sum", "sum.go"): []byte("package sum\n")})
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(tmp, "0_sum.go")
	rel, _ := filepath.Rel(root, abs)
	for _, msg := range []string{abs + ":18:9: undefined: x", rel + ":18:9: undefined: x"} {
		if got, want := names.Replace(msg), "sum/sum.go:18:9: undefined: x"; got != want {
			t.Errorf("Replace(%q) = %q, want %q", msg, got, want)
		}
	}
}
