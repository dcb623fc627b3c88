package operators

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

// TestBuildOverlay builds every mutant of every golden module with
// go build -overlay, as the runner will: the mutated file replaces the
// original and the helper file is added to the package directory. The
// mutants of one golden module build in one go build (buildBatch), each
// in a directory of its own; a batch that fails builds its mutants one by
// one, as the runner does, to name each failing mutant with its error.
func TestBuildOverlay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every golden mutant with the go command; skipped with -short")
	}
	var batches [][]overlayJob
	n := 0
	for _, op := range All {
		variants, _ := filepath.Glob(filepath.Join("testdata", op.Name+".*.txtar"))
		for _, path := range append([]string{filepath.Join("testdata", op.Name+".txtar")}, variants...) {
			m := loadModule(t, path)
			rs := m.run(t, op)
			if len(rs) == 0 {
				t.Errorf("%s: golden module has no mutants", path)
			}
			var batch []overlayJob
			for _, r := range rs {
				batch = append(batch, overlayJob{op, m, r, n})
				n++
			}
			batches = append(batches, batch)
		}
	}
	overlays := t.TempDir()
	var wg sync.WaitGroup
	ch := make(chan []overlayJob)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range ch {
				if buildBatch(overlays, b) == nil {
					continue
				}
				for _, j := range b {
					if err := buildMutant(overlays, j.m, j.op, j.r, j.idx); err != nil {
						t.Errorf("%s: %s:%d:%d %s: %v", j.op.Name, j.r.rel, j.r.pos.Line, j.r.pos.Column, j.r.site.Description, err)
					}
				}
			}
		}()
	}
	for _, b := range batches {
		ch <- b
	}
	close(ch)
	wg.Wait()
	t.Logf("built %d mutants in %d go builds", n, len(batches))
}

// An overlayJob is one golden mutant to build.
type overlayJob struct {
	op  *mutate.Operator
	m   *testModule
	r   result
	idx int
}

// buildBatch builds the mutants js, all of one golden module, in one go
// build: each mutant's package is a directory of the overlay alone,
// perfmut_mutN under the package's directory (so that it may import what
// the package may), holding the package's Go files with the mutated one
// replaced and the helper added.
func buildBatch(tmp string, js []overlayJob) error {
	if len(js) == 0 {
		return nil
	}
	m := js[0].m
	replace := map[string]string{}
	var pkgs []string
	for _, j := range js {
		dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", j.op.Name, j.idx))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		pkgDir := filepath.Dir(j.r.file)
		vdir := filepath.Join(pkgDir, fmt.Sprintf("perfmut_mut%d", j.idx))
		ents, err := os.ReadDir(pkgDir)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if name := e.Name(); e.Type().IsRegular() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
				replace[filepath.Join(vdir, name)] = filepath.Join(pkgDir, name)
			}
		}
		mutated := filepath.Join(dir, "mutant.go")
		if err := os.WriteFile(mutated, j.r.mutated, 0o644); err != nil {
			return err
		}
		replace[filepath.Join(vdir, filepath.Base(j.r.file))] = mutated
		if h := siteHelper(j.r.pkg.Name, j.op, j.r.site); h != "" {
			hp := filepath.Join(dir, helperFile)
			if err := os.WriteFile(hp, []byte(h), 0o644); err != nil {
				return err
			}
			replace[filepath.Join(vdir, helperFile)] = hp
		}
		pkgs = append(pkgs, "./"+filepath.ToSlash(mustRel(m.dir, vdir)))
	}
	js0, _ := json.Marshal(map[string]any{"Replace": replace})
	ov := filepath.Join(tmp, fmt.Sprintf("batch-%d.json", js[0].idx))
	if err := os.WriteFile(ov, js0, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("go", append([]string{"build", "-overlay=" + ov}, pkgs...)...)
	cmd.Dir, cmd.Env = m.dir, goEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return nil
}

func buildMutant(tmp string, m *testModule, op *mutate.Operator, r result, idx int) error {
	dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", op.Name, idx))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	replace := map[string]string{}
	mutated := filepath.Join(dir, "mutant.go")
	if err := os.WriteFile(mutated, r.mutated, 0o644); err != nil {
		return err
	}
	replace[r.file] = mutated
	if h := siteHelper(r.pkg.Name, op, r.site); h != "" {
		hp := filepath.Join(dir, helperFile)
		if err := os.WriteFile(hp, []byte(h), 0o644); err != nil {
			return err
		}
		replace[filepath.Join(filepath.Dir(r.file), helperFile)] = hp
	}
	js, _ := json.Marshal(map[string]any{"Replace": replace})
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, js, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-overlay="+ov, "-o", os.DevNull, "./"+filepath.ToSlash(mustRel(m.dir, filepath.Dir(r.file))))
	cmd.Dir = m.dir
	cmd.Env = goEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return nil
}

func mustRel(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		panic(err)
	}
	return rel
}

// TestHelpersBehave compiles every helper into a program and checks what
// the operators promise of them: the spin loop runs all its iterations, the
// allocation escapes (allocs/op rise), sleep sleeps, the mutex is usable
// from many goroutines, and the oblivion guard calls f twice and keeps v.
// With the race detector available it runs under -race. A program, not a
// test: go test -race builds the testing package's dependencies with the
// race detector (go/parser, encoding/json, runtime/pprof and more, for
// testing/internal/testdeps), twice the standard library a program of
// the helpers' imports needs, and the suite's most expensive build with
// an empty build cache.
func TestHelpersBehave(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a generated program; skipped with -short")
	}
	dir := t.TempDir()
	var helpers strings.Builder
	helpers.WriteString("package main\n\nimport (\n")
	for _, imp := range helperImports() {
		fmt.Fprintf(&helpers, "\t%q\n", imp)
	}
	helpers.WriteString(")\n")
	for _, op := range All {
		helpers.WriteString("\n" + op.Helper)
	}
	files := map[string]string{
		"go.mod":    "module example.com/h\n\ngo 1.26\n",
		"helper.go": helpers.String(),
		"main.go":   helperMain,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// go test vetted the helpers (a subset of vet's checks) before it ran
	// them; go run does not.
	vet := exec.Command("go", "vet", ".")
	vet.Dir, vet.Env = dir, goEnv()
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the helpers' program: %v\n%s", err, out)
	}
	cmd := exec.Command("go", "run", "-race", ".")
	cmd.Dir, cmd.Env = dir, goEnv()
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(string(out), "-race requires cgo") {
		t.Logf("race detector unavailable; running without -race")
		cmd = exec.Command("go", "run", ".")
		cmd.Dir, cmd.Env = dir, goEnv()
		out, err = cmd.CombinedOutput()
	}
	if err != nil || string(out) != "ok\n" {
		t.Fatalf("the helpers' program: %v\n%s", err, out)
	}
}

// helperMain checks the helpers: a failed check panics with what it saw,
// a race makes the race detector fail the program; it prints "ok" at the
// end. It imports nothing the helpers do not but runtime.
const helperMain = `package main

import (
	"runtime"
	"sync"
	"time"
)

func main() {
	checkSpin()
	checkTail()
	checkAlloc()
	checkSleep()
	checkConcurrent()
	checkOblivion()
	println("ok")
}

func fail(what string, got, want int64) {
	println(what, "got", got, "want", want)
	panic(what)
}

func checkSpin() {
	before := perfmut_spinSink.Load()
	perfmut_spin(100000)
	if got, want := perfmut_spinSink.Load()-before, uint64(100000*99999/2); got != want {
		fail("spin sink growth", int64(got), int64(want))
	}
	before = perfmut_critSpinSink.Load()
	perfmut_critSpin(1000)
	if got, want := perfmut_critSpinSink.Load()-before, uint64(1000*999/2); got != want {
		fail("critical-spin sink growth", int64(got), int64(want))
	}
}

func checkTail() {
	start := time.Now()
	for range 10 {
		perfmut_tail(5, int64(2*time.Millisecond))
	}
	if d := time.Since(start); d < 4*time.Millisecond {
		fail("10 calls sleeping 2ms at every 5th: slept ns", int64(d), int64(4*time.Millisecond))
	}
	if n := perfmut_tailCount.Load(); n < 10 {
		fail("tail counter after 10 calls", int64(n), 10)
	}
}

// checkAlloc: perfmut_alloc(1024) allocates at least once and 1024 bytes
// per call (the allocation escapes; testing.AllocsPerRun's count, on one
// goroutine).
func checkAlloc() {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const calls = 100
	perfmut_alloc(1024) // warm up
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range calls {
		perfmut_alloc(1024)
	}
	runtime.ReadMemStats(&after)
	if n := int64(after.Mallocs-before.Mallocs) / calls; n < 1 {
		fail("perfmut_alloc(1024): allocs per call", n, 1)
	}
	if b := int64(after.TotalAlloc-before.TotalAlloc) / calls; b < 1024 {
		fail("perfmut_alloc(1024): bytes per call", b, 1024)
	}
}

func checkSleep() {
	start := time.Now()
	perfmut_sleep(int64(2 * time.Millisecond))
	if d := time.Since(start); d < 2*time.Millisecond {
		fail("perfmut_sleep(2ms): slept ns", int64(d), int64(2*time.Millisecond))
	}
}

func checkConcurrent() {
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				perfmut_lock()
				perfmut_spin(100)
				perfmut_critSpin(100)
				perfmut_atomicDo(func() {})
				perfmut_tail(1000000, 1)
				perfmut_alloc(64)
			}
		}()
	}
	wg.Wait()
}

func checkOblivion() {
	calls := 0
	same := func() int { calls++; return 3 }
	if got := perfmut_oblivion(3, same); got != 3 || calls != 2 {
		fail("oblivion, equal: result and calls", int64(got*10+calls), 32)
	}
	calls = 0
	other := func() int { calls++; return 4 }
	if got := perfmut_oblivion(3, other); got != 3 || calls != 1 {
		fail("oblivion, different: result and calls", int64(got*10+calls), 31)
	}
}
`
