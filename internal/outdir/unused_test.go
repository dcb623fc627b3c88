package outdir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveUnused: a results directory that holds nothing but perfmut's
// bookkeeping (a command failed before writing a result) is removed; one
// with anything else stays.
func TestRemoveUnused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Make(dir); err != nil {
		t.Fatal(err)
	}
	l, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	RemoveUnused(dir)
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s holds nothing of a result, and stays", dir)
	}
	Make(dir)
	writeFiles(t, dir, map[string]string{"compare.md": "x"})
	RemoveUnused(dir)
	if _, err := os.Stat(filepath.Join(dir, "compare.md")); err != nil {
		t.Errorf("a directory with a result was removed: %v", err)
	}
}
