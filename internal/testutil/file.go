package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes content to path, creating its directory, and fails the
// test if it cannot.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}
