package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
	r := &run{c: &Campaign{}, prog: newProgress(nil, false, 0)}
	bin := filepath.Join(t.TempDir(), "vet.test")
	ok, err := r.goTestC(context.Background(), dir, "example.com/vet", bin, "", "")
	if err != nil || !ok {
		t.Fatalf("goTestC = %v, %v; want a binary", ok, err)
	}
}
