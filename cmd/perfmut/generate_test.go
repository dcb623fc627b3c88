package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/generate"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/internal/testutil"
)

// genModule copies the generate fixture (a package whose functions no
// benchmark runs) into a temporary directory.
func genModule(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "genmod")
	if err := runner.CopyModule(filepath.Join("..", "..", "internal", "generate", "testdata", "genmod"), dir, ""); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGenerate runs perfmut generate on the fixture: Sum gets a benchmark
// that kills its spin-loop mutants; Apply (a func argument) and Drain (a
// channel) are listed with the reason no literal writes their
// arguments; Count, which no test calls, is listed with what would give
// it a benchmark; PopAll's benchmark panics at its second call and is dropped,
// never written; the candidates cost one go vet and one go test -c; the
// module is untouched. With -write, the one file is added to the module;
// a second -write is refused in one line.
func TestGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, runs the tests and measures")
	}
	mod := genModule(t)
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"generate", "-C", mod, "-operators", "spin-loop", "-opt", "on", "-max-samples", "10", "-out", out, "./..."}
	hash := testutil.HashTree(t, mod)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), &stdout, &stderr, args); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if got := testutil.HashTree(t, mod); got != hash {
		t.Errorf("perfmut generate without -write changed the module")
	}
	for _, want := range []string{
		"BenchmarkPerfmutSum (Sum, example.com/genmod/calc): kills 3 mutants no benchmark killed;",
		"skipped Apply (example.com/genmod/calc): a func value\n",
		"skipped Drain (example.com/genmod/calc): a channel\n",
		"skipped (*Queue).PopAll (example.com/genmod/calc): it panics at the baseline: panic: empty queue\n",
		"skipped Count (example.com/genmod/calc): no test calls it, so there are no arguments to capture and its 3 mutants stay without a benchmark; add a test that calls Count with typical arguments, then run perfmut generate again\n",
		"1 benchmark kept; 2 go builds for the candidates;",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	file := filepath.Join(out, generate.Dir, "calc", generate.FileName)
	if want := "add it to the module (-n: never over an existing file):\n  cp -n " + file + " " + filepath.Join(mod, "calc", generate.FileName) + "\n"; !strings.HasSuffix(stdout.String(), want) {
		t.Errorf("output does not end with %q:\n%s", want, stdout.String())
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "func BenchmarkPerfmutSum(b *testing.B) {\n\ta0 := []int{1, 2, 3, 4, 5, 6, 7, 8}\n\tfor b.Loop() {\n\t\t_ = Sum(a0)\n") {
		t.Errorf("generated file:\n%s", src)
	}
	if strings.Contains(string(src), "PopAll") {
		t.Errorf("the panicking benchmark was written:\n%s", src)
	}
	var res generate.Result
	data, err := os.ReadFile(filepath.Join(out, generate.Dir, generate.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	// In the default -out, inside the module, the generated files do not
	// break go vet ./... of the module.
	inside := filepath.Join(mod, "perfmut-out")
	if err := runner.CopyModule(out, inside, ""); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("go", "vet", "-C", mod, "./...").CombinedOutput(); err != nil {
		t.Errorf("go vet ./... with the results directory inside the module: %v\n%s", err, msg)
	}
	if err := os.RemoveAll(inside); err != nil {
		t.Fatal(err)
	}

	// -out is a results directory a later run or generate may write to
	// again, and its lock is released.
	if data, err := os.ReadFile(filepath.Join(out, outdir.GitignoreFile)); err != nil || string(data) != "*\n" {
		t.Errorf("-out has no results directory's %s: %q, %v", outdir.GitignoreFile, data, err)
	}
	if _, err := os.Stat(filepath.Join(out, outdir.LockFile)); err == nil {
		t.Errorf("-out's lock is still there after generate")
	}
	if res.Builds != 2 {
		t.Errorf("the candidates paid %d go builds, want 2 (one go vet, one go test -c)", res.Builds)
	}

	// -write: exactly one new file, the one in the results directory.
	before := listFiles(t, mod)
	stdout.Reset()
	stderr.Reset()
	wargs := append([]string{"generate", "-write"}, args[1:]...)
	if code := run(context.Background(), &stdout, &stderr, wargs); code != 0 {
		t.Fatalf("-write: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	after := listFiles(t, mod)
	written := filepath.Join(mod, "calc", generate.FileName)
	if len(after) != len(before)+1 || !after[written] {
		t.Errorf("-write: files %v, want those before plus %s", after, written)
	}
	got, err := os.ReadFile(written)
	if err != nil || !bytes.Equal(got, src) {
		t.Errorf("-write wrote another file than the results directory's (%v)", err)
	}

	// A second -write refuses, in one line, before doing anything.
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), &stdout, &stderr, wargs); code != 2 {
		t.Errorf("second -write: exit %d, want 2", code)
	}
	want := "perfmut generate: " + written + " already exists; -write never overwrites a file: remove or rename it first\n"
	if stderr.String() != want {
		t.Errorf("second -write: stderr %q, want %q", stderr.String(), want)
	}
}

// listFiles is the set of files under dir.
func listFiles(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			out[path] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRunGenerate runs a campaign with -generate: the no-coverage
// mutants of Sum are marked in report.json and report.txt with the
// generated benchmark that kills them and the command that adds it.
func TestRunGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a campaign and measures")
	}
	mod := genModule(t)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-generate", "-C", mod, "-operators", "spin-loop", "-opt", "on", "-max-samples", "10", "-function-map=false", "-out", out, "./..."}
	if code := run(context.Background(), &stdout, &stderr, args); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	rep, _, err := runner.ReadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(out, generate.Dir, "calc", generate.FileName)
	marked := 0
	for _, m := range rep.Mutants {
		switch {
		case m.Function == "Sum" && m.Generated == nil:
			t.Errorf("mutant %s of Sum is not marked", m.ID)
		case m.Function != "Sum" && m.Generated != nil:
			t.Errorf("mutant %s of %s is marked: %+v", m.ID, m.Function, m.Generated)
		case m.Generated != nil:
			marked++
			want := "cp -n " + file + " " + filepath.Join(mod, "calc", generate.FileName)
			if m.Generated.Benchmark != "BenchmarkPerfmutSum" || m.Generated.File != file || m.Generated.Command != want {
				t.Errorf("mutant %s marked %+v, want BenchmarkPerfmutSum in %s, %s", m.ID, m.Generated, file, want)
			}
		}
	}
	if marked != 3 {
		t.Errorf("%d mutants marked, want Sum's 3", marked)
	}
	txt, err := os.ReadFile(filepath.Join(out, "report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(txt), "fix: a generated benchmark kills it: BenchmarkPerfmutSum in "+file); n != 3 {
		t.Errorf("report.txt offers the generated benchmark %d times, want 3:\n%s", n, txt)
	}
}

// TestGenerateBadInput: each bad input is one line and exit 2, before
// anything is built.
func TestGenerateBadInput(t *testing.T) {
	mod := genModule(t)
	other := filepath.Join(t.TempDir(), "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, runner.ReportFile), []byte(`{"schema":"perfmut/report/v1","module":"example.com/other","mutants":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-from", filepath.Join(t.TempDir(), "none")}, "no such directory; give the -out directory of a perfmut run"},
		{[]string{"-from", other}, "holds a campaign of module example.com/other, not of example.com/genmod"},
		{[]string{"-opt", "sometimes"}, `bad -opt "sometimes"`},
		{[]string{"-resume"}, "-resume continues an interrupted perfmut run; generate starts again each time: drop -resume"},
	} {
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"generate", "-C", mod}, c.args...), "./...")
		code := run(context.Background(), &stdout, &stderr, args)
		if code != 2 || !strings.Contains(stderr.String(), c.want) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// TestGenerateCopyLoader: the module copy generate verifies in has no
// .git, so -changed-since (and -mutants) must not apply to its load:
// every mutant of the copy is loaded, as many as a plain load of the
// module finds.
func TestGenerateCopyLoader(t *testing.T) {
	mod := genModule(t)
	var plain campaignFlags
	plain.load.Dir = mod
	want, err := plain.load.Load(context.Background(), []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	var f campaignFlags
	f.load.Dir, f.load.ChangedSince, f.load.Mutants = mod, "HEAD", want.Mutants[0].ID
	_, got, err := f.copyLoader([]string{"./..."})(context.Background(), mod)
	if err != nil {
		t.Fatalf("loading the copy with -changed-since HEAD: %v", err)
	}
	if len(got) != len(want.Mutants) || len(got) < 2 {
		t.Errorf("the copy's load has %d mutants, want all %d", len(got), len(want.Mutants))
	}
}
