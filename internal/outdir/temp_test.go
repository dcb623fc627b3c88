package outdir

import (
	"fmt"
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

// TestRemoveStaleTemp: the temporary directories of runs whose process is
// gone are removed; those of live runs, those still without a pid file and
// other directories stay.
func TestRemoveStaleTemp(t *testing.T) {
	dir := t.TempDir()
	mk := func(name, pid string) string {
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		if pid != "" {
			os.WriteFile(filepath.Join(d, "pid"), []byte(pid), 0o644)
		}
		return d
	}
	// A pid that cannot exist (above the kernel's pid_max limit).
	dead := mk("perfmut-run-1", "2147483646")
	alive := mk("perfmut-run-2", fmt.Sprint(os.Getpid()))
	nopid := mk("perfmut-run-3", "")
	other := mk("other-1", "2147483646")
	RemoveStaleTemp(dir)
	for d, want := range map[string]bool{dead: false, alive: true, nopid: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
