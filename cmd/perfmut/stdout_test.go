package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// fullWriter fails every write, as stdout on /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestStdoutFull: a command whose output cannot be written says so in one
// line, exit 1, instead of exit 0 with the output lost.
func TestStdoutFull(t *testing.T) {
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := run(context.Background(), fullWriter{}, &stderr, []string{"list", "-C", demo, "./..."})
	want := "perfmut list: writing the output: no space left on device\n"
	if code != exitError || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, stderr.String(), want)
	}
}
