package runner

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/perfmut/perfmut/engine"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
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
			got := engine.ClassifyTests(tc.res)
			if got.Status != tc.status || got.Reason != tc.reason {
				t.Errorf("got (%q, %q), want (%q, %q)", got.Status, got.Reason, tc.status, tc.reason)
			}
		})
	}
}

func TestBenchFailure(t *testing.T) {
	got := engine.BenchFailure(proc.Result{ExitCode: 1, Output: []byte("--- FAIL: BenchmarkX\n    x_test.go:5: wrong\nFAIL\n")})
	if got.Status != score.FNE || !strings.Contains(got.Reason, "x_test.go:5: wrong") {
		t.Errorf("b.Fatal: got %+v, want fne", got)
	}
	got = engine.BenchFailure(proc.Result{ExitCode: 2, Output: []byte("panic: runtime error: index out of range\n\ngoroutine 1:\n")})
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
		if got := (engine.Benchmark{Name: name}).Pattern(); got != want {
			t.Errorf("pattern(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestBenchNames(t *testing.T) {
	out := fmt.Sprintf("goos: linux\npkg: x\nBenchmarkSum%[1]s \t 100\t 12 ns/op\nBenchmarkFind/n=10%[1]s \t 5\t 3 ns/op\t 0 B/op\t 0 allocs/op\nPASS\n", engine.ProcsSuffix())
	names, spo := engine.BenchNames([]byte(out))
	if got := strings.Join(names, ","); got != "BenchmarkSum,BenchmarkFind/n=10" {
		t.Errorf("benchNames = %s", got)
	}
	if math.Abs(spo["BenchmarkSum"]-12e-9) > 1e-15 || math.Abs(spo["BenchmarkFind/n=10"]-3e-9) > 1e-15 {
		t.Errorf("sec/op = %v", spo)
	}
	for spo, want := range map[float64]int{1e-9: 100000, 1e-6: 50000, 1e-3: 50, 0.1: 2, 0: 100} {
		if got := engine.CoverIters(spo); got != want {
			t.Errorf("coverIters(%g) = %d, want %d", spo, got, want)
		}
	}
}

func TestSelectBenchmarks(t *testing.T) {
	covs := []*engine.BenchCoverage{
		{Bench: engine.Benchmark{Pkg: "p", Name: "BenchmarkLoop"}, Blocks: map[string][]engine.CovBlock{
			"p/f.go": {{StartLine: 3, StartCol: 10, EndLine: 5, EndCol: 2, CountN: 2000, Count2N: 3000}, {StartLine: 7, StartCol: 1, EndLine: 8, EndCol: 4, CountN: 1, Count2N: 1}}}},
		{Bench: engine.Benchmark{Pkg: "p", Name: "BenchmarkSetup"}, Blocks: map[string][]engine.CovBlock{
			"p/f.go": {{StartLine: 7, StartCol: 1, EndLine: 8, EndCol: 4, CountN: 2, Count2N: 2}}}},
		{Bench: engine.Benchmark{Pkg: "q", Name: "BenchmarkOther"}, Blocks: map[string][]engine.CovBlock{
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
		sel := engine.SelectBenchmarks(covs, scope, "p/f.go", [][2]int{tc.pos})
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
	got := engine.MutantPositions(src, m)
	if len(got) != 1 || got[0] != [2]int{4, 2} {
		t.Errorf("positions = %v, want [[4 2]]", got)
	}
	m.Edits = nil
	if got := engine.MutantPositions(src, m); got[0] != [2]int{9, 9} {
		t.Errorf("without edits: %v, want the site", got)
	}
}

func TestParseShard(t *testing.T) {
	for _, ok := range []string{"1/1", "1/4", "4/4"} {
		if _, _, err := ParseShard(ok); err != nil {
			t.Errorf("ParseShard(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"3/2", "0/2", "1", "a/b", "1/0", "-1/2", "2/2/2", ""} {
		_, _, err := ParseShard(bad)
		if err == nil {
			t.Errorf("ParseShard(%q) succeeded", bad)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "k/n") {
			t.Errorf("ParseShard(%q) error %q: want one line explaining k/n", bad, msg)
		}
	}
}

func TestShardPartition(t *testing.T) {
	var ms []mutate.Mutant
	for i := range 200 {
		ms = append(ms, mutate.Mutant{ID: fmt.Sprintf("m%03d", i)})
	}
	for n := 1; n <= 5; n++ {
		seen := map[string]int{}
		for k := 1; k <= n; k++ {
			part := Shard(ms, k, n)
			if n > 1 && (len(part) < 200/n/2 || len(part) > 2*200/n) {
				t.Errorf("shard %d/%d has %d of 200 mutants", k, n, len(part))
			}
			for _, m := range part {
				seen[m.ID]++
			}
		}
		for _, m := range ms {
			if seen[m.ID] != 1 {
				t.Fatalf("n=%d: %s is in %d shards", n, m.ID, seen[m.ID])
			}
		}
	}
}

func TestSampleMutants(t *testing.T) {
	var ms []mutate.Mutant
	for i := range 50 {
		ms = append(ms, mutate.Mutant{ID: fmt.Sprint(i)})
	}
	a, b, c := SampleMutants(ms, 10, 7), SampleMutants(ms, 10, 7), SampleMutants(ms, 10, 8)
	ids := func(ms []mutate.Mutant) string {
		var s []string
		for _, m := range ms {
			s = append(s, m.ID)
		}
		return strings.Join(s, ",")
	}
	if len(a) != 10 || ids(a) != ids(b) {
		t.Errorf("same seed, different samples: %s vs %s", ids(a), ids(b))
	}
	if ids(a) == ids(c) {
		t.Errorf("different seeds, same sample %s", ids(a))
	}
	if len(SampleMutants(ms, 0, 1)) != 50 || len(SampleMutants(ms, 80, 1)) != 50 {
		t.Errorf("-sample 0 or above the count must keep every mutant")
	}
}

func TestJournalTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), results.JournalFile)
	j, err := results.OpenJournal(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b"} {
		if err := j.Append(results.JournalEntry{ID: id, Level: results.Opt, Result: &results.LevelResult{Status: score.Killed}}); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	// A SIGKILL in the middle of a write leaves half a line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"c","level":"opt","res`)
	f.Close()
	entries, good, err := results.ReadJournal(path)
	if err != nil || len(entries) != 2 {
		t.Fatalf("results.ReadJournal: %d entries, %v; want 2", len(entries), err)
	}
	j, err = results.OpenJournal(path, good)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(results.JournalEntry{ID: "c", Level: results.Opt, Result: &results.LevelResult{Status: score.Survived}})
	j.Close()
	entries, _, err = results.ReadJournal(path)
	if err != nil || len(entries) != 3 || entries[2].ID != "c" {
		t.Fatalf("after appending to a repaired journal: %+v, %v", entries, err)
	}
}

func TestCheckModuleDir(t *testing.T) {
	cache := strings.TrimSpace(goEnv(t, "GOMODCACHE"))
	err := CheckModuleDir(filepath.Join(cache, "github.com/google/btree@v1.1.3"))
	if err == nil || !strings.Contains(err.Error(), "copy it out") || strings.Contains(err.Error(), "\n") {
		t.Errorf("module in the cache: %v, want a one-line hint to copy it out", err)
	}
	if err := CheckModuleDir(t.TempDir()); err != nil {
		t.Errorf("module outside the cache: %v", err)
	}
}

func goEnv(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestSortedUnits(t *testing.T) {
	got := strings.Join(sortedUnits(map[string]float64{"allocs/op": 1, "zz/op": 1, "sec/op": 1, "B/op": 1, "MB/s": 1}), " ")
	if got != "sec/op B/op allocs/op MB/s zz/op" {
		t.Errorf("sortedUnits = %s", got)
	}
}

func TestRemoveStaleTemp(t *testing.T) {
	dir := t.TempDir()
	mk := func(name, pid string) string {
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		if pid != "" {
			os.WriteFile(filepath.Join(d, "pid"), []byte(pid), 0o644)
		}
		return d
	}
	// A pid that cannot exist (above the kernel's pid_max limit).
	dead := mk("perfmut-run-1", "2147483646")
	alive := mk("perfmut-run-2", fmt.Sprint(os.Getpid()))
	nopid := mk("perfmut-run-3", "")
	other := mk("other-1", "2147483646")
	RemoveStaleTemp(dir)
	for d, want := range map[string]bool{dead: false, alive: true, nopid: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}

func TestDisplayNames(t *testing.T) {
	got := displayNames([]engine.Benchmark{{Pkg: "a/p", Name: "BenchmarkX"}, {Pkg: "a/q", Name: "BenchmarkX"}, {Pkg: "a/q", Name: "BenchmarkY"}})
	want := map[engine.Benchmark]string{{Pkg: "a/p", Name: "BenchmarkX"}: "a/p.BenchmarkX", {Pkg: "a/q", Name: "BenchmarkX"}: "a/q.BenchmarkX", {Pkg: "a/q", Name: "BenchmarkY"}: "BenchmarkY"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("displayNames = %v, want %v", got, want)
	}
	// run -cpu 1,2: one benchmark at two GOMAXPROCS values, named as go test
	// -cpu prints them, and distinct.
	bs := engine.WithCPUs([]engine.Benchmark{{Pkg: "a/p", Name: "BenchmarkX"}}, []int{1, 2})
	got = displayNames(bs)
	want = map[engine.Benchmark]string{bs[0]: "BenchmarkX", bs[1]: "BenchmarkX-2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("displayNames at -cpu 1,2 = %v, want %v", got, want)
	}
}

// TestSettingsDiffCPU: a campaign measured at other GOMAXPROCS values is
// not the same campaign (-resume, merge and -since refuse to mix them).
func TestSettingsDiffCPU(t *testing.T) {
	if got, want := (results.Settings{RuleSettings: results.RuleSettings{CPU: []int{1, 2}}}).Diff(results.Settings{}), "-cpu ([1 2] vs [])"; got != want {
		t.Errorf("Settings.Diff = %q, want %q", got, want)
	}
	if got := (results.Settings{RuleSettings: results.RuleSettings{CPU: []int{2}}}).Diff(results.Settings{RuleSettings: results.RuleSettings{CPU: []int{2}}}); got != "" {
		t.Errorf("Settings.Diff of equal -cpu = %q, want none", got)
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
	got, err := engine.ReadProfile(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]engine.CovBlock{
		"example.com/m/a.go": {{StartLine: 3, StartCol: 14, EndLine: 5, EndCol: 2, CountN: 12}, {StartLine: 10, StartCol: 2, EndLine: 12, EndCol: 3, CountN: 4294967295}},
		"example.com/m/b.go": {{StartLine: 1, StartCol: 1, EndLine: 2, EndCol: 2}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("readProfile = %v, want %v", got, want)
	}
	os.WriteFile(f, []byte("mode: atomic\nbroken line\n"), 0o644)
	if _, err := engine.ReadProfile(f); err == nil {
		t.Error("a malformed profile was read without an error")
	}
}

// TestCountMinEffectSetting: the minimum effect of counted verdicts is a
// setting, so -resume, merge and -since refuse to mix verdicts decided at
// 1.005 with ones at 1.01 (both campaigns recorded the same settings).
func TestCountMinEffectSetting(t *testing.T) {
	mk := func(countMin float64) *Campaign {
		c := &Campaign{}
		c.Rule = score.Rule{Alpha: 0.05, MinEffect: 1.01}.WithDefaults()
		c.Counting = &engine.Counting{MinEffect: countMin}
		c.RecordSettings(context.Background())
		return c
	}
	a, b := mk(1.005), mk(1.01)
	if got, want := a.Settings.Diff(b.Settings), "-min-effect on instruction counts (1.005 vs 1.01)"; got != want {
		t.Errorf("Diff = %q, want %q", got, want)
	}
	if reflect.DeepEqual(a.Settings.Verdict(), b.Settings.Verdict()) {
		t.Error("-since hashes the two alike")
	}
}
