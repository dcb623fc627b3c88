package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSensitivityInterrupted: Ctrl-C during perfmut sensitivity's builds
// says "interrupted" in one line (not the go command's goroutine dump,
// which its SIGQUIT makes it print), exit 1, and leaves nothing in TMPDIR.
func TestSensitivityInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and builds the demo")
	}
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if m, _ := filepath.Glob(filepath.Join(tmp, "perfmut-run-*", "gotmp", "go-build*")); len(m) > 0 {
				break
			}
		}
		cancel()
	}()
	var stdout, stderr bytes.Buffer
	code := run(ctx, &stdout, &stderr, []string{"sensitivity", "-C", demo, "./..."})
	want := "perfmut sensitivity: interrupted: no map (the module is as it was; the temporary directory is removed)\n"
	if code != exitError || stderr.String() != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, stderr.String(), want)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("left in TMPDIR: %v", ents)
	}
}
