package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestCalibrateBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-trials", "0"}, "perfmut calibrate: bad -trials 0: want at least 1 (default 40)\n"},
		{[]string{"-kinds", "x"}, "perfmut calibrate: bad -kinds \"x\": want both, self or null\n"},
		{[]string{"-benchtime", "fast"}, "perfmut calibrate: bad -benchtime \"fast\": want a positive duration like 100ms or a count like 1000x\n"},
		{[]string{"-resume"}, "perfmut calibrate: -resume needs -out DIR: the directory an interrupted calibrate -out DIR kept\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), &stdout, &stderr, append([]string{"calibrate"}, tc.args...)); code != exitUsage || stderr.String() != tc.want {
			t.Errorf("calibrate %v: exit %d, stderr %q; want 2, %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestCalibrateDemo runs a small calibration on the demo module end to end:
// trials are measured through the runner and the table is printed, and
// the module is left as it was.
func TestCalibrateDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the demo module; skipped with -short")
	}
	mod := filepath.Join(t.TempDir(), "demo")
	if out, err := exec.Command("cp", "-r", filepath.Join("..", "..", "testdata", "demo"), mod).CombinedOutput(); err != nil {
		t.Fatalf("copying the demo module: %v\n%s", err, out)
	}
	before := treeDigest(t, mod)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"calibrate", "-C", mod,
		"-trials", "2", "-opt", "on", "-benchtime", "5ms", "-max-samples", "6", "./cache"})
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, re := range []string{
		`(?m)^opt +baseline vs itself +\d +\d +\d+\.\d% +\[\d+\.\d%, \d+\.\d%\] +5\.0% `,
		`(?m)^opt +baseline vs null mutant +\d +\d +\d+\.\d% `,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", re, out)
		}
	}
	if strings.Contains(out, "no trial measured") || strings.Contains(out, "not measured") {
		t.Errorf("trials went to sites no benchmark runs:\n%s", out)
	}
	if after := treeDigest(t, mod); after != before {
		t.Errorf("calibrate changed the module's files")
	}
}

// treeDigest lists every file of dir with its content.
func treeDigest(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b.WriteString(p + "\n" + string(data) + "\n")
		return err
	})
	return b.String()
}

// TestCalibrateTags: calibrate builds with -tags, as run does (a module
// whose tests need a tagged file does not build without them).
func TestCalibrateTags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks a module; skipped with -short")
	}
	mod := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":         "module example.com/tagged\n\ngo 1.22\n",
		"lib/lib.go":     "// Package lib needs the special tag.\npackage lib\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s + extra\n}\n",
		"lib/special.go": "//go:build special\n\npackage lib\n\nconst extra = 0\n",
		"lib/lib_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum([]int{1, 2}) != 3 {\n\t\tt.Fatal(\"Sum\")\n\t}\n}\n\nvar sink int\n\n" +
			"func BenchmarkSum(b *testing.B) {\n\txs := make([]int, 100)\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += Sum(xs)\n\t}\n}\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o755)
		os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"calibrate", "-C", mod, "-tags", "special",
		"-trials", "1", "-kinds", "null", "-opt", "on", "-max-samples", "5", "./..."})
	if code != 0 || !regexp.MustCompile(`(?m)^opt +baseline vs null mutant +1 `).MatchString(stdout.String()) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
}
