package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// History makes a git repository in a new temporary directory from the
// txtar archive file: a file named "commit N: message" starts a commit,
// the files after it are written (replacing earlier content), then
// committed with that message. It returns the directory.
func History(t testing.TB, file string) string {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	Git(t, dir, "init", "-q", "-b", "main")
	msg := ""
	commit := func() {
		if msg != "" {
			Git(t, dir, "add", "-A")
			Git(t, dir, "commit", "-q", "-m", msg)
		}
	}
	for _, f := range ar.Files {
		if m, ok := strings.CutPrefix(f.Name, "commit "); ok {
			commit()
			_, msg, _ = strings.Cut(m, ": ")
			continue
		}
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit()
	return dir
}
