package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/outdir"
)

// TestMergeInUse: merge refuses a directory a perfmut run is still
// writing (its report.json may be an earlier one, or missing), naming the
// run, before it creates anything.
func TestMergeInUse(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "s1")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, ReportFile), []byte(`{"schema": "stale"}`), 0o644)
	l, err := outdir.Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	out := filepath.Join(base, "all")
	_, err = Merge(out, []string{dir})
	want := fmt.Sprintf("%s is in use by perfmut (pid %d, since ", dir, os.Getpid())
	if err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want || !errors.As(err, new(*inputerr.Error)) {
		t.Errorf("Merge: %v\nwant an input error starting %s", err, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused merge created %s", out)
	}
}
