package changes

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

// numbered returns n lines "name line i".
func numbered(name string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(name + " line " + strings.Repeat("x", i%3) + "\n")
	}
	return b.String()
}

// editLines replaces the given 1-based lines of content.
func editLines(content string, edits map[int]string) string {
	lines := strings.Split(content, "\n")
	for i, s := range edits {
		lines[i-1] = s
	}
	return strings.Join(lines, "\n")
}

type repo struct {
	t   *testing.T
	dir string
}

func (r repo) git(args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (r repo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r repo) read(name string) string {
	data, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(name)))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

// newRepo makes a git repository whose Go module lives in mod/, with a
// main branch and a feature branch forked from it; main then moves on.
func newRepo(t *testing.T) repo {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := repo{t, t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.write("README.md", "top\n")
	r.write("mod/go.mod", "module example.com/m\n\ngo 1.22\n")
	r.write("mod/a.go", numbered("a", 20))
	r.write("mod/b.go", numbered("b", 10))
	r.write("mod/pkg/d.go", numbered("d", 30))
	r.write("mod/a_test.go", numbered("t", 5))
	r.git("add", ".")
	r.git("commit", "-q", "-m", "base")
	r.git("checkout", "-q", "-b", "feature")
	r.git("checkout", "-q", "main")
	r.write("mod/b.go", editLines(r.read("mod/b.go"), map[int]string{2: "b changed on main"}))
	r.git("commit", "-q", "-am", "main moves on")
	r.git("checkout", "-q", "feature")
	// Committed on the branch: a.go line 15; rename pkg/d.go -> pkg/e.go
	// with line 7 changed.
	r.write("mod/a.go", editLines(r.read("mod/a.go"), map[int]string{15: "a changed 15"}))
	r.git("mv", "mod/pkg/d.go", "mod/pkg/e.go")
	r.write("mod/pkg/e.go", editLines(r.read("mod/pkg/e.go"), map[int]string{7: "e changed 7"}))
	r.git("commit", "-q", "-am", "feature work")
	// Uncommitted: a.go lines 3, 10, 11 (and a line inserted after 11),
	// a pure deletion in b.go, a test file, an untracked file, an ignored
	// file and a change outside the module.
	a := editLines(r.read("mod/a.go"), map[int]string{3: "a changed 3", 10: "a changed 10", 11: "a changed 11\na inserted"})
	r.write("mod/a.go", a)
	b := strings.Split(r.read("mod/b.go"), "\n")
	r.write("mod/b.go", strings.Join(append(b[:4:4], b[5:]...), "\n"))
	r.write("mod/a_test.go", editLines(r.read("mod/a_test.go"), map[int]string{2: "t changed"}))
	r.write("mod/new.go", "package m\n\nfunc New() {}\n")
	r.write(".gitignore", "*.log\n")
	r.write("mod/debug.log", "ignored\n")
	r.write("README.md", "top changed\n")
	return r
}

func TestLines(t *testing.T) {
	r := newRepo(t)
	want := map[string][]Range{
		"a.go":      {{3, 3}, {10, 12}, {16, 16}}, // line 15 moved to 16 by the insertion
		"pkg/e.go":  {{7, 7}},
		"a_test.go": {{2, 2}},
		"new.go":    {{1, 3}},
	}
	for _, dir := range []string{"mod", "mod/pkg"} { // any directory inside the module
		got, err := Lines(context.Background(), filepath.Join(r.dir, dir), "main")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Lines(%s, main) =\n%v\nwant\n%v", dir, got, want)
		}
	}
	// Against the branch itself only the uncommitted edits count.
	got, err := Lines(context.Background(), filepath.Join(r.dir, "mod"), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want = map[string][]Range{"a.go": {{3, 3}, {10, 12}}, "a_test.go": {{2, 2}}, "new.go": {{1, 3}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lines(HEAD) = %v, want %v", got, want)
	}
}

// TestLinesShallow: in a shallow clone where the merge base of rev and
// HEAD is missing, Lines fails with a hint instead of diffing against
// rev's tip (which would count main's own later commits as the branch's).
func TestLinesShallow(t *testing.T) {
	r := newRepo(t)
	r.git("add", ".")
	r.git("commit", "-q", "-m", "rest of the feature")
	clone := repo{t, filepath.Join(t.TempDir(), "clone")}
	os.MkdirAll(clone.dir, 0o755)
	clone.git("clone", "-q", "--depth", "1", "--branch", "feature", "file://"+r.dir, ".")
	clone.git("fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
	_, err := Lines(context.Background(), filepath.Join(clone.dir, "mod"), "origin/main")
	if err == nil || !strings.Contains(err.Error(), "shallow clone") || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Errorf("Lines in a shallow clone: %v, want the shallow-clone hint", err)
	}
}

func TestLinesErrors(t *testing.T) {
	r := newRepo(t)
	noGit := t.TempDir()
	os.WriteFile(filepath.Join(noGit, "go.mod"), []byte("module x\n"), 0o644)
	for _, tc := range []struct{ dir, rev, want string }{
		{filepath.Join(r.dir, "mod"), "no-such-branch", "-changed-since no-such-branch: no such git revision"},
		{filepath.Join(r.dir, "mod"), "--output=x", `-changed-since "--output=x": want a git revision`},
		{filepath.Join(r.dir, "mod"), "", `want a git revision`},
		{noGit, "main", "-changed-since needs a git checkout"},
		{r.dir, "main", "is not inside a Go module"},
	} {
		_, err := Lines(context.Background(), tc.dir, tc.rev)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Lines(%s, %q) error %v, want %q", tc.dir, tc.rev, err, tc.want)
		}
	}
}

func TestParseDiff(t *testing.T) {
	diff := `diff --git a/x.go b/x.go
index 1..2 100644
--- a/x.go
+++ b/x.go
@@ -1 +1 @@
-a
+b
@@ -5,0 +6,2 @@ func f() {
+c
+d
@@ -9,2 +10,0 @@
-e
-f
@@ -20 +19 @@
-g
+h
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,3 +0,0 @@
-x
diff --git "a/sp ace\tq.go" "b/sp ace\tq.go"
--- "a/sp ace\tq.go"
+++ "b/sp ace\tq.go"
@@ -2 +2,3 @@
-z
+z1
+z2
+z3
`
	got, err := parseDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]Range{
		"x.go":         {{1, 1}, {6, 7}, {19, 19}},
		"sp ace\tq.go": {{2, 4}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseDiff = %v, want %v", got, want)
	}
	if _, err := parseDiff([]byte("+++ b/x.go\n@@ -1 +x @@\n")); err == nil {
		t.Errorf("bad hunk header accepted")
	}
}

func TestFilterAndSummary(t *testing.T) {
	lines := map[string][]Range{
		"a.go":      {{3, 3}, {10, 12}},
		"pkg/e.go":  {{7, 7}},
		"a_test.go": {{2, 2}},
		"README.md": {{1, 1}},
	}
	m := func(id, file string, line int) mutate.Mutant { return mutate.Mutant{ID: id, File: file, Line: line} }
	all := []mutate.Mutant{
		m("1", "a.go", 2), m("2", "a.go", 3), m("3", "a.go", 9), m("4", "a.go", 10), m("5", "a.go", 12),
		m("6", "a.go", 13), m("7", "pkg/e.go", 7), m("8", "pkg/e.go", 8), m("9", "b.go", 3),
	}
	kept := Filter(all, lines)
	var ids []string
	for _, k := range kept {
		ids = append(ids, k.ID)
	}
	if strings.Join(ids, ",") != "2,4,5,7" {
		t.Errorf("Filter kept %v, want 2,4,5,7", ids)
	}
	var buf bytes.Buffer
	if err := Summary(&buf, "origin/main", lines, all, kept); err != nil {
		t.Fatal(err)
	}
	want := `changed since origin/main: 2 Go files, 5 lines, 4 of 9 mutants in scope
  a.go      lines 3, 10-12  (3 mutants)
  pkg/e.go  line 7  (1 mutant)
  (2 other changed files: README.md, a_test.go)
`
	if buf.String() != want {
		t.Errorf("Summary =\n%s\nwant\n%s", buf.String(), want)
	}
}

// FuzzParseDiff: any input either fails cleanly or gives sorted, merged,
// non-empty ranges of positive lines.
func FuzzParseDiff(f *testing.F) {
	f.Add("+++ b/x.go\n@@ -1 +1 @@\n@@ -3,0 +4,2 @@\n")
	f.Add("+++ \"b/a\\tb.go\"\n@@ -1,2 +0,0 @@\n+++ /dev/null\n")
	f.Fuzz(func(t *testing.T, diff string) {
		got, err := parseDiff([]byte(diff))
		if err != nil {
			return
		}
		for file, rs := range got {
			for i, r := range rs {
				if r.Start > r.End || (i > 0 && rs[i-1].End+1 >= r.Start) {
					t.Errorf("%s: ranges %v not sorted and merged", file, rs)
				}
			}
		}
	})
}
