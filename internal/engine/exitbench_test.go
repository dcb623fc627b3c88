package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// exitModule is a package with a benchmark that runs its loop and then
// calls os.Exit(0): a test binary that ends with status 0 after printing
// the results of the benchmarks before it and none of those after.
var exitModule = map[string]string{
	"go.mod": "module example.com/p\n\ngo 1.22\n",
	"p.go":   "package p\n\n// First is the index of the first x in s, or -1.\nfunc First(s []int, x int) int {\n\tfor i, v := range s {\n\t\tif v == x {\n\t\t\treturn i\n\t\t}\n\t}\n\treturn -1\n}\n",
	"p_test.go": `package p

import (
	"os"
	"testing"
)

var sink int

func BenchmarkExit(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink++
	}
	os.Exit(0)
}

func BenchmarkFirst(b *testing.B) {
	s := make([]int, 100)
	for i := 0; i < b.N; i++ {
		sink += First(s, 1)
	}
}
`,
}

// buildExitModule writes exitModule and builds its test binary.
func buildExitModule(t *testing.T) (dir, bin string) {
	t.Helper()
	dir = t.TempDir()
	for name, data := range exitModule {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin = filepath.Join(dir, "p.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	return dir, bin
}

// TestListBenchmarksExitZero: a benchmark that calls os.Exit(0) is left
// out of the listing with a warning that names it and the call, and the
// benchmarks after it are listed: before, the listing ended with status
// 0 and listed nothing, so a campaign had "no benchmarks in scope" and
// compare's gate passed on a real regression.
func TestListBenchmarksExitZero(t *testing.T) {
	dir, bin := buildExitModule(t)
	e := New(Config{Packages: []*mutate.Package{{ImportPath: "example.com/p", Dir: dir}}, Measurement: Measurement{BenchTimeout: time.Minute}}, "", nil)
	names, _, err := e.ListBenchmarks(context.Background(), &mutate.Package{ImportPath: "example.com/p", Dir: dir}, bin)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"BenchmarkFirst"}) {
		t.Errorf("listed %q, want [BenchmarkFirst]", names)
	}
	// The runtime prints the panic of os.Exit(0), or the process ends
	// with status 0 first, after the benchmark's result without a time.
	for _, why := range exitZeroWhy {
		want := "baseline benchmark BenchmarkExit of example.com/p fails: " + why + "; it is left out of judging"
		if len(e.Warnings) == 1 && e.Warnings[0] == want {
			return
		}
	}
	t.Errorf("warnings %q, want one naming BenchmarkExit and one of %q", e.Warnings, exitZeroWhy)
}

// exitZeroWhy are the reasons a run of BenchmarkExit fails: the panic of
// os.Exit(0) under -test.paniconexit0, or, when the process ends before
// the runtime prints it, the result without a time (timelessResult).
var exitZeroWhy = []string{"panic: unexpected call to os.Exit(0) during test", exitZeroReason}

// TestBenchOnceExitZero: a sample of a benchmark that calls os.Exit(0)
// is a failed run (no values) that crashed, for a reason naming
// os.Exit(0), whichever way the process ended (exitZeroWhy).
func TestBenchOnceExitZero(t *testing.T) {
	dir, bin := buildExitModule(t)
	e := New(Config{}, "", nil)
	vals, res, err := e.BenchOnce(context.Background(), bin, dir, Benchmark{Pkg: "example.com/p", Name: "BenchmarkExit"}, "1x", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	o := BenchFailure(res)
	if vals != nil || o.Status != score.Crash || !slices.Contains(exitZeroWhy, o.Reason) {
		t.Errorf("values %v, failure %s (%s), exit %d, output %q; want no values and a crash for one of %q", vals, o.Status, o.Reason, res.ExitCode, res.Output, exitZeroWhy)
	}
}

// TestPassed: a listing run passed when its output ends with PASS.
func TestPassed(t *testing.T) {
	for out, want := range map[string]bool{
		"BenchmarkA\nBenchmarkA \t 1\t 5 ns/op\nPASS\n": true,
		"PASS":         true,
		"BenchmarkA\n": false,
		"PASS\ncoverage: 90.0% of statements in p\n": true,
		"":                           false,
		"--- FAIL: BenchmarkA\nFAIL": false,
	} {
		if got := passed([]byte(out)); got != want {
			t.Errorf("passed(%q) = %v, want %v", out, got, want)
		}
	}
}
