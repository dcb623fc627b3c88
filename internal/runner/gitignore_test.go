package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/internal/outdir"
)

// git runs git in dir and returns its output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestOutGitignore: the results directories run and merge create inside
// a module (in a git repository) hold a .gitignore with "*", so git
// status stays clean; a directory that existed before is left as it was.
func TestOutGitignore(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	mod, pkgs := testModule(t, "hot")
	git(t, mod.Dir, "init", "-q")
	git(t, mod.Dir, "add", "-A")
	git(t, mod.Dir, "commit", "-qm", "module")

	out := filepath.Join(mod.Dir, "perfmut-out")
	if _, err := newTestCampaign(t, mod, pkgs, nil, out).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(filepath.Join(mod.Dir, "results", "merged"), []string{out}); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{out, filepath.Join(mod.Dir, "results", "merged")} {
		if data, err := os.ReadFile(filepath.Join(dir, outdir.GitignoreFile)); err != nil || string(data) != "*\n" {
			t.Errorf("%s: %q, %v; want \"*\\n\"", filepath.Join(dir, outdir.GitignoreFile), data, err)
		}
	}
	if st := git(t, mod.Dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after run and merge:\n%s", st)
	}

	mine := filepath.Join(mod.Dir, "mine")
	os.Mkdir(mine, 0o755)
	if _, err := newTestCampaign(t, mod, pkgs, nil, mine).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(mine, outdir.GitignoreFile)); err == nil {
		t.Errorf("run wrote a .gitignore into a directory it did not create")
	}
}
