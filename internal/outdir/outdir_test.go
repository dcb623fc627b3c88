package outdir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheckUnreadable: a results directory that cannot be looked at
// (here a symbolic link to itself) is one line saying why, not taken for
// a directory to create.
func TestCheckUnreadable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "loop")
	if err := os.Symlink(dir, dir); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	_, statErr := os.Stat(dir)
	want := "-out " + dir + ": cannot read it: " + unwrapPath(statErr).Error() + "; choose another directory with -out"
	if err := Check(dir); err == nil || err.Error() != want {
		t.Errorf("Check: %v, want %q", err, want)
	}
}
