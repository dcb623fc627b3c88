package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The go command's go-build* directories must go under the run's private
// temp dir, which the next run removes if perfmut was killed.
func TestGoCmdTempDir(t *testing.T) {
	r := testRun(&Campaign{}, t.TempDir())
	res, err := r.GoCmd(context.Background(), t.TempDir(), "env", "GOTMPDIR")
	if err != nil || !res.OK() {
		t.Fatalf("go env: %v %s", err, res.Output)
	}
	if got, want := strings.TrimSpace(string(res.Output)), filepath.Join(r.Tmp, "gotmp"); got != want {
		t.Errorf("GOTMPDIR = %q, want %q", got, want)
	}
}
