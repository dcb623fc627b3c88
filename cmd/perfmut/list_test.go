package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/perfmut/perfmut/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of the script tests")

// Script tests live in testdata/script/*.txtar. Each archive's comment
// holds '#' comment lines and one command line, "perfmut <args>". The
// archive's files, except those under want/, are written to a fresh
// directory $WORK, where the command runs (in-process, through run).
// want/stdout, want/stderr and want/exit hold the expected results, with
// the absolute paths of $WORK and $DEMO (testdata/demo) replaced by those
// names. Every script also checks that neither $WORK nor $DEMO changed.
// go test ./cmd/perfmut -update rewrites the want/ sections.

func TestListScripts(t *testing.T) { runScripts(t, "list_*.txtar") }

func runScripts(t *testing.T, glob string) {
	files, err := filepath.Glob(filepath.Join("testdata", "script", glob))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts match %s: %v", glob, err)
	}
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		file, _ := filepath.Abs(file) // the script changes directory
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) { runScript(t, file, demo) })
	}
}

func runScript(t *testing.T, file, demo string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	var command string
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if command != "" {
			t.Fatalf("%s: more than one command line", file)
		}
		command = line
	}
	args := strings.Fields(command)
	if len(args) == 0 || args[0] != "perfmut" {
		t.Fatalf("%s: the comment must hold one line 'perfmut <args>'", file)
	}
	want := map[string]string{}
	for _, f := range ar.Files {
		if rest, ok := strings.CutPrefix(f.Name, "want/"); ok {
			want[rest] = string(f.Data)
			continue
		}
		path := filepath.Join(work, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for i, a := range args {
		a = strings.ReplaceAll(a, "$WORK", work)
		args[i] = strings.ReplaceAll(a, "$DEMO", demo)
	}
	beforeWork, beforeDemo := hashTree(t, work), hashTree(t, demo)

	t.Chdir(work)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, args[1:])

	if hashTree(t, work) != beforeWork || hashTree(t, demo) != beforeDemo {
		t.Errorf("%s: the command changed the module's files", command)
	}
	norm := func(s string) string {
		s = strings.ReplaceAll(s, work, "$WORK")
		return strings.ReplaceAll(s, demo, "$DEMO")
	}
	got := map[string]string{
		"stdout": norm(stdout.String()),
		"stderr": norm(stderr.String()),
		"exit":   strconv.Itoa(code) + "\n",
	}
	if *update {
		var files []txtar.File
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want/") {
				files = append(files, f)
			}
		}
		for _, k := range []string{"stdout", "stderr", "exit"} {
			if got[k] != "" {
				files = append(files, txtar.File{Name: "want/" + k, Data: []byte(got[k])})
			}
		}
		ar.Files = files
		if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, k := range []string{"stdout", "stderr", "exit"} {
		if got[k] != want[k] {
			t.Errorf("%s: %s:\n%s\nwant:\n%s\ndiff:\n%s", command, k, got[k], want[k], lineDiff(want[k], got[k]))
		}
	}
}

// lineDiff shows the first differing line of want and got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n-%s\n+%s", i+1, wl, gl)
		}
	}
	return ""
}

// hashTree hashes every file name, mode, modification time and content
// under dir.
func hashTree(t testing.TB, dir string) string {
	t.Helper()
	return testutil.HashTree(t, dir)
}
