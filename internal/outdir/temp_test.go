package outdir

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRemoveStaleTempUnwritten: a run killed between creating its
// temporary directory and writing its pid file leaves a directory without
// one; the next run removes it once it is older than staleUnwritten, and
// leaves a fresh one (a run that is writing its pid file) alone.
func TestRemoveStaleTempUnwritten(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "perfmut-run-old")
	fresh := filepath.Join(dir, "perfmut-run-fresh")
	for _, d := range []string{old, fresh} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-2 * staleUnwritten)
	os.Chtimes(old, then, then)
	RemoveStaleTemp(dir)
	for d, want := range map[string]bool{old: false, fresh: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
