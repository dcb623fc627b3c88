package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/testutil"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// runnerModule copies the runner's testdata module name to a temp dir.
func runnerModule(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	src := filepath.Join("..", "..", "internal", "runner", "testdata", name)
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	return dst
}

func TestRunBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and builds modules")
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	perf, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(modcache)), "golang.org/x/perf@*"))
	if len(perf) == 0 {
		t.Fatal("golang.org/x/perf is not in the module cache")
	}
	hot := runnerModule(t, "hot")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad shard", []string{"-C", hot, "-shard", "3/2"}, exitUsage, `bad -shard "3/2": want k/n with 1 <= k <= n`},
		{"bad opt", []string{"-C", hot, "-opt", "maybe"}, exitUsage, `bad -opt "maybe"`},
		{"bad alpha", []string{"-C", hot, "-alpha", "0"}, exitUsage, "-alpha 0 out of range"},
		{"bad futility", []string{"-C", hot, "-futility", "2"}, exitUsage, "-futility 2 out of range: want below 1"},
		{"bad benchtime", []string{"-C", hot, "-benchtime", "fast"}, exitUsage, `bad -benchtime "fast"`},
		{"out not writable", []string{"-C", hot, "-out", "/dev/null/out"}, exitUsage, "-out /dev/null/out: cannot create it: /dev/null is not a directory"},
		{"module cache", []string{"-C", perf[0], "-out", t.TempDir()}, exitUsage, "inside the read-only module cache"},
		{"baseline fails", []string{"-C", runnerModule(t, "failing"), "-out", t.TempDir()}, exitError,
			"baseline tests fail in package example.com/failing/lib (failing tests: TestDouble)"},
		{"no benchmarks", []string{"-C", runnerModule(t, "nobench"), "-out", t.TempDir()}, exitError, "no benchmarks in scope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), &stdout, &stderr, append([]string{"run"}, tc.args...))
			msg := strings.TrimSpace(stderr.String())
			lines := strings.Split(msg, "\n")
			last := lines[len(lines)-1]
			if code != tc.code || !strings.Contains(last, tc.want) || !strings.HasPrefix(last, "perfmut run: ") {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and a last line 'perfmut run: ...%s...'", code, msg, tc.code, tc.want)
			}
		})
	}
}

// TestRunHot runs the CLI on internal/runner/testdata/hot with two operators whose
// outcomes are known, and checks report.json, the exit status of
// -min-score and that the module is untouched.
func TestRunHot(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end campaign")
	}
	hot := runnerModule(t, "hot")
	before := hashTree(t, hot)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"run", "-C", hot, "-out", out,
		"-operators", "alloc-churn,loop-unbreaker", "-opt", "on", "-benchtime", "100x", "-max-samples", "8",
		"-min-score", "0.9", "./calc"})
	if code != exitThreshold {
		t.Fatalf("exit %d, want %d (score below -min-score)\nstderr:\n%s", code, exitThreshold, stderr.String())
	}
	if hashTree(t, hot) != before {
		t.Errorf("the module changed")
	}
	rep, err := results.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]score.Status{}
	for _, m := range rep.Mutants {
		got[m.Operator+" "+m.Function] = m.Results[results.Opt].Status
	}
	want := map[string]score.Status{
		"alloc-churn Sum":     score.Killed,
		"alloc-churn Find":    score.Killed,
		"alloc-churn Prepare": score.NoCoverage, // only in benchmark setup
		"alloc-churn Unused":  score.NoCoverage,
		"alloc-churn Orphan":  score.NoCoverage,
		"loop-unbreaker Find": score.FNE,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s (all: %v)", k, got[k], w, got)
		}
	}
	if s := rep.Score[results.Opt]; s.Killed != 2 || s.Valid != 5 {
		t.Errorf("score %+v, want 2 killed of 5 valid", s)
	}
	if !strings.Contains(stderr.String(), "mutation score below -min-score 90") {
		t.Errorf("stderr does not explain the exit status:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "opt   score  40.0% (2 killed of 5 valid") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	for _, f := range []string{"journal.jsonl", "report.txt"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
}

// TestRunChangedSince runs only the mutants on lines changed since a
// commit: the edited Find loop's break, none of the other functions.
func TestRunChangedSince(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	hot := runnerModule(t, "hot")
	git := func(args ...string) { testutil.Git(t, hot, args...) }
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "hot")
	file := filepath.Join(hot, "calc", "calc.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "\t\t\tbreak\n", "\t\t\tbreak // first match\n", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"run", "-C", hot, "-out", out,
		"-operators", "alloc-churn,loop-unbreaker", "-opt", "on", "-changed-since", "HEAD", "./calc"})
	if code != exitOK {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "changed since HEAD") {
		t.Errorf("stderr does not summarize the changed lines:\n%s", stderr.String())
	}
	rep, err := results.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Mutants) != 1 || rep.Mutants[0].Operator != "loop-unbreaker" || rep.Mutants[0].Results[results.Opt].Status != score.FNE {
		t.Errorf("mutants %+v, want only the loop-unbreaker of the changed line, fne", rep.Mutants)
	}
}

func TestMergeBadInput(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{empty}, exitUsage, "-out is required"},
		{[]string{"-out", filepath.Join(t.TempDir(), "m")}, exitUsage, "no shard directories"},
		{[]string{"-out", filepath.Join(t.TempDir(), "m"), empty}, exitUsage, "is not the results directory of a perfmut run"},
		{[]string{"-out", filepath.Join(t.TempDir(), "m"), filepath.Join(empty, "nope")}, exitUsage, "nope: no such directory"},
		{[]string{"-out", filepath.Dir(empty), empty}, exitUsage, "already exists and is not empty"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), &stdout, &stderr, append([]string{"merge"}, tc.args...))
		msg := strings.TrimSpace(stderr.String())
		if code != tc.code || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
			t.Errorf("merge %v: exit %d, stderr %q; want exit %d and one line with %q", tc.args, code, msg, tc.code, tc.want)
		}
	}
}

// TestJudgedByImporters: scope chooses what is mutated, not who judges it.
// A loop-unbreaker in lib that app's test rejects is fne with app excluded
// by the config, and with a package pattern naming lib alone.
func TestJudgedByImporters(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a module")
	}
	files := map[string]string{
		"go.mod":     "module example.com/excl\n\ngo 1.22\n",
		"lib/lib.go": "// Package lib finds things.\npackage lib\n\n// First returns the index of the first x in s, or -1.\nfunc First(s []int, x int) int {\n\tidx := -1\n\tfor i, v := range s {\n\t\tif v == x {\n\t\t\tidx = i\n\t\t\tbreak\n\t\t}\n\t}\n\treturn idx\n}\n",
		"lib/lib_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestFirst(t *testing.T) {\n\tif First([]int{3, 1, 2}, 1) != 1 {\n\t\tt.Fatal(\"First\")\n\t}\n}\n\n" +
			"var sink int\n\nfunc BenchmarkFirst(b *testing.B) {\n\ts := make([]int, 100)\n\ts[10] = 1\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += First(s, 1)\n\t}\n}\n",
		"app/app.go":      "// Package app uses lib.\npackage app\n\nimport \"example.com/excl/lib\"\n\n// One is the position of the first 1.\nfunc One(s []int) int { return lib.First(s, 1) }\n",
		"app/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestFirstOfTwo(t *testing.T) {\n\tif One([]int{1, 1}) != 0 {\n\t\tt.Fatal(\"One: want the first\")\n\t}\n}\n",
		"perfmut.yaml":    "packages:\n  exclude: [./app, ./broken]\n",
		// An importer whose tests do not build (as golang.org/x/text's
		// tools with a newer Go) is left out of judging with a warning.
		"broken/broken.go":      "// Package broken uses lib.\npackage broken\n\nimport \"example.com/excl/lib\"\n\n// Two finds 2.\nfunc Two(s []int) int { return lib.First(s, 2) }\n",
		"broken/broken_test.go": "package broken\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) { var x int = \"not an int\"; _ = x }\n",
	}
	mod := t.TempDir()
	for name, src := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o755)
		os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644)
	}
	for i, pattern := range []string{"./...", "./lib"} {
		out := filepath.Join(t.TempDir(), fmt.Sprint("out", i))
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), &stdout, &stderr, []string{"run", "-C", mod, "-opt", "on", "-operators", "loop-unbreaker", "-out", out, pattern})
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", pattern, code, stderr.String())
		}
		rep, err := results.ReadFile(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Mutants) != 1 {
			t.Fatalf("%s: %d mutants, want the one loop-unbreaker in lib", pattern, len(rep.Mutants))
		}
		if r := rep.Mutants[0].Results[results.Opt]; r.Status != score.FNE || !strings.Contains(r.Reason, "TestFirstOfTwo") {
			t.Errorf("%s: %s (%s), want fne from app's TestFirstOfTwo", pattern, r.Status, r.Reason)
		}
		if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, "package example.com/excl/broken imports a mutated package but its tests do not build") {
			t.Errorf("%s: warnings %q do not name the package whose tests do not build", pattern, w)
		}
	}
}
