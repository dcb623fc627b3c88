package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/testutil"
)

func TestLoadFlagsRegister(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var lf loadFlags
	lf.register(fs)
	if err := fs.Parse([]string{"-C", "d", "-config", "c.yaml", "-operators", "a,b", "-tags", "t1,t2", "./..."}); err != nil {
		t.Fatal(err)
	}
	want := loadFlags{dir: "d", configPath: "c.yaml", operators: "a,b", tags: "t1,t2"}
	if lf != want || fs.Arg(0) != "./..." {
		t.Errorf("parsed %+v, want %+v", lf, want)
	}
}

func TestLoadUsageErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(dir, "m.go"), "package m\n")
	for _, lf := range []loadFlags{
		{dir: filepath.Join(dir, "missing")},
		{dir: dir, operators: "nope"},
		{dir: dir, operators: ","},
		{dir: dir, configPath: "missing.yaml"},
		{dir: t.TempDir()},
	} {
		_, _, _, err := lf.load(context.Background(), nil)
		var ee *exitErr
		if !errors.As(err, &ee) || ee.code != exitUsage {
			t.Errorf("%+v: err = %v, want a usage error", lf, err)
		}
	}
}

// TestChangedSince keeps only the mutants on lines changed since a commit.
func TestChangedSince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	src := `package m

func A(n int) []int { return make([]int, 0, n) }

func B(n int) []int { return make([]int, 0, n) }
`
	writeFile(t, filepath.Join(dir, "m.go"), src)
	git := func(args ...string) { testutil.Git(t, dir, args...) }
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "initial")
	writeFile(t, filepath.Join(dir, "m.go"), strings.Replace(src, "func B(n int) []int { return make([]int, 0, n) }", "func B(n int) []int { return make([]int, 0, n+1) }", 1))

	lf := loadFlags{dir: dir, operators: "cap-hint-drop", changedSince: "HEAD"}
	_, ms, _, err := lf.load(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Function != "B" || ms[0].Line != 5 {
		t.Errorf("mutants = %+v, want one in B at line 5", ms)
	}
	lf.changedSince = "no-such-rev"
	if _, _, _, err := lf.load(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "-changed-since no-such-rev") {
		t.Errorf("bad revision: err = %v", err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}
