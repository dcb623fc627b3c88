package instr

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/parse")

// TestParseOutput parses each testdata/parse/*.txtar's cachegrind.out and
// compares the count, or the error, with its want section.
func TestParseOutput(t *testing.T) {
	files, err := filepath.Glob("testdata/parse/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in, want := section(t, ar, "cachegrind.out"), section(t, ar, "want")
			n, err := parseOutput(bytes.NewReader(in.Data))
			got := fmt.Sprintf("count: %d\n", n)
			if err != nil {
				got = fmt.Sprintf("error: %v\n", err)
			}
			if *update {
				want.Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != string(want.Data) {
				t.Errorf("ParseOutput:\n got %s\nwant %s", got, want.Data)
			}
		})
	}
}

// section returns the file named name of ar.
func section(t *testing.T, ar *txtar.Archive, name string) *txtar.File {
	t.Helper()
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			return &ar.Files[i]
		}
	}
	t.Fatalf("no %s section", name)
	return nil
}
