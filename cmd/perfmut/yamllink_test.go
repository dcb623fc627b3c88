package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestConfigDanglingSymlink: a perfmut.yaml that is a symbolic link to
// nothing is one line saying so, exit 2, not silently no configuration.
func TestConfigDanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n"), 0o644)
	if err := os.Symlink("shared/perfmut.yaml", filepath.Join(dir, "perfmut.yaml")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"list", "-C", dir, "./..."})
	want := "perfmut list: perfmut.yaml: a symbolic link to shared/perfmut.yaml, which does not exist\n"
	if code != exitUsage || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr.String(), want)
	}
}
