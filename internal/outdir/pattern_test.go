package outdir

import (
	"os"
	"testing"
)

// TestCheckPattern: an -out that is a package pattern (perfmut run -out
// ./..., the directory after -out forgotten) is refused, instead of a
// results directory named "..." in the module.
func TestCheckPattern(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, dir := range []string{"./...", "...", "./text/..."} {
		want := "-out " + dir + " is a package pattern, not a directory: give the results directory after -out, then the packages"
		if err := Check(dir); err == nil || err.Error() != want {
			t.Errorf("Check(%q): %v, want %q", dir, err, want)
		}
	}
	if ents, _ := os.ReadDir("."); len(ents) > 0 {
		t.Errorf("Check created %v", ents)
	}
}
