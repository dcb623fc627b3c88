package load

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/testutil"
)

func TestLoadUsageErrors(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	testutil.WriteFile(t, filepath.Join(dir, "m.go"), "package m\n")
	for _, lf := range []Loader{
		{Dir: filepath.Join(dir, "missing")},
		{Dir: dir, Operators: "nope"},
		{Dir: dir, Operators: ","},
		{Dir: dir, ConfigPath: "missing.yaml"},
		{Dir: t.TempDir()},
	} {
		_, err := lf.Load(context.Background(), nil)
		if !errors.As(err, new(*inputerr.Error)) {
			t.Errorf("%+v: err = %v, want an *inputerr.Error", lf, err)
		}
	}
}

// TestChangedSince keeps only the mutants on lines changed since a commit.
func TestChangedSince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	src := `package m

func A(n int) []int { return make([]int, 0, n) }

func B(n int) []int { return make([]int, 0, n) }
`
	testutil.WriteFile(t, filepath.Join(dir, "m.go"), src)
	git := func(args ...string) { testutil.Git(t, dir, args...) }
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "initial")
	testutil.WriteFile(t, filepath.Join(dir, "m.go"), strings.Replace(src, "func B(n int) []int { return make([]int, 0, n) }", "func B(n int) []int { return make([]int, 0, n+1) }", 1))

	lf := Loader{Dir: dir, Operators: "cap-hint-drop", ChangedSince: "HEAD"}
	ld, err := lf.Load(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ms := ld.Mutants
	if len(ms) != 1 || ms[0].Function != "B" || ms[0].Line != 5 {
		t.Errorf("mutants = %+v, want one in B at line 5", ms)
	}
	lf.ChangedSince = "no-such-rev"
	if _, err := lf.Load(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "-changed-since no-such-rev") {
		t.Errorf("bad revision: err = %v", err)
	}
}

func TestResolveID(t *testing.T) {
	ids := []string{"0a1b2c3d4e5f", "0a1b99999999", "ffff00000000"}
	for _, tc := range []struct{ in, want, err string }{
		{"0a1b2c3d4e5f", "0a1b2c3d4e5f", ""},
		{"0a1b2", "0a1b2c3d4e5f", ""},
		{"ffff", "ffff00000000", ""},
		{"0a1b", "", "mutant ID prefix 0a1b is ambiguous (0a1b2c3d4e5f, 0a1b99999999, ...); give more digits"},
		{"1234", "", "unknown mutant ID 1234; run 'perfmut list' to see the IDs (they change when the mutated code changes)"},
		{"fffff", "", "unknown mutant ID fffff; run 'perfmut list' to see the IDs (they change when the mutated code changes)"},
	} {
		got, err := resolveID(ids, tc.in)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.err {
			t.Errorf("resolveID(%s) = %q, %q; want %q, %q", tc.in, got, gotErr, tc.want, tc.err)
		}
	}
}
