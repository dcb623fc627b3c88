package changes

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/testutil"
)

func TestParseSides(t *testing.T) {
	diff := `diff --git a/x.go b/x.go
--- a/x.go
+++ b/x.go
@@ -3,2 +3,0 @@
-a
-b
@@ -10 +8,2 @@
-c
+d
+e
@@ -20,0 +19 @@
+f
diff --git a/gone.go b/gone.go
--- a/gone.go
+++ /dev/null
@@ -1,3 +0,0 @@
-x
-y
-z
diff --git a/new.go b/new.go
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+p
+q
`
	d, err := parseSides([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	wantOld := map[string][]Range{"x.go": {{3, 4}, {10, 10}}, "gone.go": {{1, 3}}}
	wantNew := map[string][]Range{"x.go": {{8, 9}, {19, 19}}, "new.go": {{1, 2}}}
	if !reflect.DeepEqual(d.Old, wantOld) || !reflect.DeepEqual(d.New, wantNew) {
		t.Errorf("old %v, new %v; want %v, %v", d.Old, d.New, wantOld, wantNew)
	}
	if got := strings.Join(d.Files, " "); got != "x.go x.go gone.go new.go" {
		t.Errorf("files %q", got)
	}
}

// Between and Export on the compare test module's history: the module is
// in a subdirectory of the repository, NEW is the working tree with an
// edit and an untracked file; nothing in the repository changes.
func TestBetweenAndExport(t *testing.T) {
	ctx := context.Background()
	top := testutil.History(t, filepath.Join("..", "..", "testdata", "comparemod", "history.txtar"))
	// Move the module one level down, as in a monorepo.
	if err := os.Mkdir(filepath.Join(top, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	testutil.Git(t, top, "mv", "sum", "words", "go.mod", "sub/")
	testutil.Git(t, top, "commit", "-q", "-m", "move")
	mod := filepath.Join(top, "sub")
	if err := os.WriteFile(filepath.Join(mod, "sum", "extra.go"), []byte("package sum\n\nvar X = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := testutil.HashTree(t, top)

	repo, err := OpenRepo(ctx, mod)
	if err != nil {
		t.Fatal(err)
	}
	if repo.ModRel != "sub" {
		t.Errorf("ModRel %q, want sub", repo.ModRel)
	}
	old, err := repo.Resolve(ctx, "OLD", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Resolve(ctx, "NEW", WorkTree)
	if err != nil || wt.Commit != old.Commit {
		t.Fatalf("WORKTREE resolves to %v, %v; want HEAD's commit", wt, err)
	}
	d, err := repo.Between(ctx, old, wt)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Files, " "); got != "sum/extra.go" {
		t.Errorf("files %q, want the untracked sum/extra.go", got)
	}
	if !reflect.DeepEqual(d.New["sum/extra.go"], []Range{{1, 3}}) {
		t.Errorf("new lines %v", d.New)
	}

	first, err := repo.Resolve(ctx, "OLD", "HEAD~4")
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "old")
	dir, err := repo.Export(ctx, first, dst)
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(dst, "sub") {
		t.Errorf("module dir %s", dir)
	}
	// HEAD~4 is the base commit, before the move: no sub/ in it.
	if _, err := os.Stat(filepath.Join(dst, "sum", "sum.go")); err != nil {
		t.Errorf("exported tree lacks sum/sum.go: %v", err)
	}
	d, err = repo.Between(ctx, first, old)
	if err != nil {
		t.Fatal(err)
	}
	// --relative to the module: the move makes every file of the module
	// new under sub/, seen from sub/ as added.
	if d.New["sum/sum.go"] == nil {
		t.Errorf("HEAD~4..HEAD changed no line of sum/sum.go: %v", d.New)
	}
	if testutil.HashTree(t, top) != before {
		t.Errorf("the repository changed")
	}

	for _, rev := range []string{"nosuch", "-x", ""} {
		if _, err := repo.Resolve(ctx, "OLD", rev); err == nil {
			t.Errorf("revision %q accepted", rev)
		}
	}
}
