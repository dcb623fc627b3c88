package engine

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

func TestClassifyTests(t *testing.T) {
	const v = "\x16"
	for _, tc := range []struct {
		name   string
		res    proc.Result
		status score.Status
		reason string
	}{
		{"pass", proc.Result{Output: []byte(v + "=== RUN   TestA\n" + v + "--- PASS: TestA (0.00s)\n" + v + "PASS\n")}, "", ""},
		{"fail", proc.Result{ExitCode: 1, Output: []byte(v + "=== RUN   TestA\n    a_test.go:9: bad\n" + v + "--- FAIL: TestA (0.00s)\n" + v + "FAIL\n")},
			score.FNE, "failing tests: TestA"},
		{"subtest", proc.Result{ExitCode: 1, Output: []byte(v + "=== RUN   TestA\n" + v + "=== RUN   TestA/x\n" + v + "--- FAIL: TestA/x (0.00s)\n" + v + "--- FAIL: TestA (0.00s)\n" + v + "FAIL\n")},
			score.FNE, "failing tests: TestA/x"},
		{"panic", proc.Result{ExitCode: 2, Output: []byte(v + "=== RUN   TestB\n" + v + "--- FAIL: TestB (0.00s)\npanic: boom [recovered, repanicked]\n\ngoroutine 7 [running]:\n")},
			score.Crash, "panic: boom [recovered, repanicked] in TestB"},
		{"fatal", proc.Result{ExitCode: 2, Output: []byte(v + "=== RUN   TestC\nfatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n")},
			score.Crash, "fatal error: all goroutines are asleep - deadlock! in TestC"},
		{"signal", proc.Result{ExitCode: -1, Signal: syscall.SIGSEGV, Output: []byte(v + "=== RUN   TestD\n")},
			score.Crash, "test process killed by signal segmentation fault in TestD"},
		{"timeout", proc.Result{ExitCode: -1, TimedOut: true, Signal: syscall.SIGQUIT}, score.Timeout, ""},
		{"exit", proc.Result{ExitCode: 3, Output: []byte(v + "=== RUN   TestE\nbye\n")},
			score.Crash, "test process exited with status 3 without reporting a failed test: bye"},
		{"passing test prints panic", proc.Result{Output: []byte("panic: not really\n" + v + "PASS\n")}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := classifyTests(tc.res)
			if got.Status != tc.status || got.Reason != tc.reason {
				t.Errorf("got (%q, %q), want (%q, %q)", got.Status, got.Reason, tc.status, tc.reason)
			}
		})
	}
}

func TestBenchFailure(t *testing.T) {
	got := BenchFailure(proc.Result{ExitCode: 1, Output: []byte("--- FAIL: BenchmarkX\n    x_test.go:5: wrong\nFAIL\n")})
	if got.Status != score.FNE || !strings.Contains(got.Reason, "x_test.go:5: wrong") {
		t.Errorf("b.Fatal: got %+v, want fne", got)
	}
	got = BenchFailure(proc.Result{ExitCode: 2, Output: []byte("panic: runtime error: index out of range\n\ngoroutine 1:\n")})
	if got.Status != score.Crash {
		t.Errorf("panic: got %+v, want crash", got)
	}
}

func TestBenchmarkPattern(t *testing.T) {
	for name, want := range map[string]string{
		"BenchmarkSum":            "^BenchmarkSum$",
		"BenchmarkFind/n=10":      "^BenchmarkFind$/^n=10$",
		"BenchmarkX/a.b(c)/#01":   `^BenchmarkX$/^a\.b\(c\)$/^#01$`,
		"BenchmarkY/size=1<<10+1": `^BenchmarkY$/^size=1<<10\+1$`,
	} {
		if got := (Benchmark{Name: name}).Pattern(); got != want {
			t.Errorf("pattern(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestBenchNames(t *testing.T) {
	out := fmt.Sprintf("goos: linux\npkg: x\nBenchmarkSum%[1]s \t 100\t 12 ns/op\nBenchmarkFind/n=10%[1]s \t 5\t 3 ns/op\t 0 B/op\t 0 allocs/op\nPASS\n", procsSuffix())
	names, spo := benchNames([]byte(out))
	if got := strings.Join(names, ","); got != "BenchmarkSum,BenchmarkFind/n=10" {
		t.Errorf("benchNames = %s", got)
	}
	if math.Abs(spo["BenchmarkSum"]-12e-9) > 1e-15 || math.Abs(spo["BenchmarkFind/n=10"]-3e-9) > 1e-15 {
		t.Errorf("sec/op = %v", spo)
	}
	for spo, want := range map[float64]int{1e-9: 100000, 1e-6: 50000, 1e-3: 50, 0.1: 2, 0: 100} {
		if got := coverIters(spo); got != want {
			t.Errorf("coverIters(%g) = %d, want %d", spo, got, want)
		}
	}
}

func TestSelectBenchmarks(t *testing.T) {
	covs := []*BenchCoverage{
		{Bench: Benchmark{Pkg: "p", Name: "BenchmarkLoop"}, Blocks: map[string][]CovBlock{
			"p/f.go": {{StartLine: 3, StartCol: 10, EndLine: 5, EndCol: 2, CountN: 2000, Count2N: 3000}, {StartLine: 7, StartCol: 1, EndLine: 8, EndCol: 4, CountN: 1, Count2N: 1}}}},
		{Bench: Benchmark{Pkg: "p", Name: "BenchmarkSetup"}, Blocks: map[string][]CovBlock{
			"p/f.go": {{StartLine: 7, StartCol: 1, EndLine: 8, EndCol: 4, CountN: 2, Count2N: 2}}}},
		{Bench: Benchmark{Pkg: "q", Name: "BenchmarkOther"}, Blocks: map[string][]CovBlock{
			"p/f.go": {{StartLine: 7, StartCol: 1, EndLine: 8, EndCol: 4, CountN: 2, Count2N: 3}}}},
	}
	scope := map[string]bool{"p": true}
	for _, tc := range []struct {
		pos  [2]int
		want string
	}{
		{[2]int{3, 10}, "BenchmarkLoop"},                        // block start is inside
		{[2]int{5, 2}, "none: no benchmark"},                    // block end is outside
		{[2]int{4, 1}, "BenchmarkLoop"},                         // middle line
		{[2]int{8, 3}, "none: reached only in benchmark setup"}, // q is out of scope
		{[2]int{20, 1}, "none: no benchmark"},
	} {
		sel := SelectBenchmarks(covs, scope, "p/f.go", [][2]int{tc.pos})
		got := ""
		for _, b := range sel.Benches {
			got += b.Name
		}
		if got == "" {
			got = "none: " + sel.Reason
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: got %q, want %q", tc.pos, got, tc.want)
		}
	}
}

func TestMutantPositions(t *testing.T) {
	src := []byte("package p\n\nfunc f() {\n\tx := 1\n}\n")
	m := mutate.Mutant{Line: 9, Column: 9, Edits: []mutate.Edit{{Start: 23, End: 23, New: "y"}}}
	got := MutantPositions(src, m)
	if len(got) != 1 || got[0] != [2]int{4, 2} {
		t.Errorf("positions = %v, want [[4 2]]", got)
	}
	m.Edits = nil
	if got := MutantPositions(src, m); got[0] != [2]int{9, 9} {
		t.Errorf("without edits: %v, want the site", got)
	}
}

func TestSortedUnits(t *testing.T) {
	got := strings.Join(sortedUnits(map[string]float64{"allocs/op": 1, "zz/op": 1, "sec/op": 1, "B/op": 1, "MB/s": 1}), " ")
	if got != "sec/op B/op allocs/op MB/s zz/op" {
		t.Errorf("sortedUnits = %s", got)
	}
}

func TestDisplayNames(t *testing.T) {
	got := displayNames([]Benchmark{{Pkg: "a/p", Name: "BenchmarkX"}, {Pkg: "a/q", Name: "BenchmarkX"}, {Pkg: "a/q", Name: "BenchmarkY"}})
	want := map[Benchmark]string{{Pkg: "a/p", Name: "BenchmarkX"}: "a/p.BenchmarkX", {Pkg: "a/q", Name: "BenchmarkX"}: "a/q.BenchmarkX", {Pkg: "a/q", Name: "BenchmarkY"}: "BenchmarkY"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("displayNames = %v, want %v", got, want)
	}
	// run -cpu 1,2: one benchmark at two GOMAXPROCS values, named as go test
	// -cpu prints them, and distinct.
	bs := WithCPUs([]Benchmark{{Pkg: "a/p", Name: "BenchmarkX"}}, []int{1, 2})
	got = displayNames(bs)
	want = map[Benchmark]string{bs[0]: "BenchmarkX", bs[1]: "BenchmarkX-2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("displayNames at -cpu 1,2 = %v, want %v", got, want)
	}
}

// TestReadProfile: blocks come sorted by position, a block listed twice
// (two test binaries) is summed, and a 32-bit counter's full range is kept.
func TestReadProfile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "c.out")
	os.WriteFile(f, []byte("mode: atomic\n"+
		"example.com/m/a.go:10.2,12.3 2 4294967295\n"+
		"example.com/m/a.go:3.14,5.2 1 7\n"+
		"example.com/m/a.go:3.14,5.2 1 5\n"+
		"example.com/m/b.go:1.1,2.2 1 0\n"), 0o644)
	got, err := readProfile(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]CovBlock{
		"example.com/m/a.go": {{StartLine: 3, StartCol: 14, EndLine: 5, EndCol: 2, CountN: 12}, {StartLine: 10, StartCol: 2, EndLine: 12, EndCol: 3, CountN: 4294967295}},
		"example.com/m/b.go": {{StartLine: 1, StartCol: 1, EndLine: 2, EndCol: 2}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("readProfile = %v, want %v", got, want)
	}
	os.WriteFile(f, []byte("mode: atomic\nbroken line\n"), 0o644)
	if _, err := readProfile(f); err == nil {
		t.Error("a malformed profile was read without an error")
	}
}
