package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTempDirMissing: a TMPDIR that is not a writable directory is one
// line naming it, exit 2, before any command works (it was "an
// operator's helper imports "time", which is not a standard-library
// package", or that valgrind cannot run a Go program); -h still works.
func TestTempDirMissing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	for _, tc := range []struct{ tmp, want string }{
		{"/nonexistent-perfmut-tmp", "perfmut list: TMPDIR /nonexistent-perfmut-tmp: no such directory; perfmut builds and runs its work there: create it, or set TMPDIR to a writable directory\n"},
		{file, "perfmut list: TMPDIR " + file + ": not a directory; perfmut builds and runs its work there: create it, or set TMPDIR to a writable directory\n"},
	} {
		t.Setenv("TMPDIR", tc.tmp)
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), &stdout, &stderr, []string{"list", "./..."})
		if code != exitUsage || stderr.String() != tc.want {
			t.Errorf("TMPDIR=%s: exit %d, stderr %q; want exit 2 and %q", tc.tmp, code, stderr.String(), tc.want)
		}
		stderr.Reset()
		run(context.Background(), &stdout, &stderr, []string{"list", "-h"})
		if !strings.HasPrefix(stderr.String(), "Usage: perfmut list") {
			t.Errorf("TMPDIR=%s: list -h: %s, want the usage", tc.tmp, stderr.String())
		}
	}
}
