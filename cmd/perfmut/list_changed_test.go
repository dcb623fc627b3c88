package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/testutil"
)

// TestListChangedSince previews a pull request's scope: after a commit,
// an edit of one loop leaves only that loop's mutants.
func TestListChangedSince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) { testutil.Git(t, dir, args...) }
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("m.go", "package m\n\nfunc A(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n\nfunc B(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts -= x\n\t}\n\treturn s\n}\n")
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "m")
	write("m.go", "package m\n\nfunc A(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n\nfunc B(xs []int) (s int) {\n\tfor _, x := range xs { // changed\n\t\ts -= x\n\t}\n\treturn s\n}\n")

	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"list", "-C", dir, "-operators", "spin-loop", "-changed-since", "HEAD", "-json", "./..."})
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if n := strings.Count(out, `"function": "B"`); n != 3 || strings.Contains(out, `"function": "A"`) {
		t.Errorf("want the 3 spin-loop mutants of B only (1e4, 1e5, 1e6), got:\n%s", out)
	}

	stderr.Reset()
	code = run(context.Background(), &stdout, &stderr, []string{"list", "-C", dir, "-changed-since", "no-such-rev", "./..."})
	if code != exitUsage || strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
		t.Errorf("bad rev: exit %d, stderr %q; want exit 2 and one line", code, stderr.String())
	}
}
