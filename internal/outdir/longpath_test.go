package outdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckTooLong: an -out too long for the system to create is refused
// before anything is created (a 4,400-character -out left 20 levels of
// directories behind).
func TestCheckTooLong(t *testing.T) {
	base := t.TempDir()
	long := filepath.Join(base, strings.Repeat(strings.Repeat("d", 200)+"/", 22))
	err := Check(long)
	if err == nil || !strings.Contains(err.Error(), "the path is too long") {
		t.Errorf("Check(%d bytes): %v, want the path is too long", len(long), err)
	}
	name := filepath.Join(base, "a", strings.Repeat("n", 300), "out")
	want := "-out " + name + ": cannot create it: mkdir " + filepath.Join(base, "a", strings.Repeat("n", 300)) + ": file name too long; choose another directory with -out"
	if err := Check(name); err == nil || err.Error() != want {
		t.Errorf("Check(a 300-byte name): %v, want %s", err, want)
	}
	if ents, _ := os.ReadDir(base); len(ents) > 0 {
		t.Errorf("Check created %v", ents)
	}
}
