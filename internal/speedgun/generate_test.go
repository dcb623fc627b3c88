package speedgun

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// load loads the package matching pattern in the module at dir.
func load(t *testing.T, dir, pattern string) (*mutate.Program, *mutate.Package) {
	t.Helper()
	prog, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Patterns: []string{pattern}})
	if err != nil {
		t.Fatal(err)
	}
	return prog, prog.Packages[0]
}

// TestGenerateFixture: on a type whose methods panic (Boom; Add after
// Freeze; Take holding the lock, so that the other goroutines block),
// crash the process (Release), deadlock (Hang), write files (Save) or
// cannot be called from a pool (Each), the benchmark calls none of the failing ones, the driver is
// built once, the dropped candidates are counted with their reasons, and
// the emitted file compiles into the package's tests and runs, reporting
// the latency quantile asked for.
func TestGenerateFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "speedgun", "fixture"))
	prog, pkg := load(t, dir, "./counter")
	var log bytes.Buffer
	tmp := t.TempDir()
	e := engine.New(engine.Config{Module: prog.Module, Measurement: engine.Measurement{Verbose: true}}, tmp, engine.NewProgress(&log, false, 0))
	r, err := Generate(context.Background(), Config{Engine: e, Package: pkg, Seed: 1, CandidateTimeout: time.Second, Latency: "p99.9-ns/op"})
	if err != nil {
		t.Fatal(err)
	}
	if builds := strings.Count(log.String(), "go test -c"); builds != 1 || r.Builds != 1 {
		t.Errorf("%d go test -c in the log, Builds %d; want 1 (one driver binary for the package)", builds, r.Builds)
	}
	if len(r.Benchmarks) != 1 {
		t.Fatalf("benchmarks %+v, want one", r.Benchmarks)
	}
	bm := r.Benchmarks[0]
	if bm.Name != "BenchmarkConcurrentCounter" || bm.Type != "*Counter" {
		t.Errorf("benchmark %s of %s, want BenchmarkConcurrentCounter of *Counter", bm.Name, bm.Type)
	}
	for _, bad := range []string{"Boom(", "Hang(", "Take(", "Release(", "Save(", "Close(", "Each("} {
		if strings.Contains(bm.Source, bad) {
			t.Errorf("the benchmark calls %s):\n%s", bad, bm.Source)
		}
	}
	if strings.Contains(bm.Source, "Freeze()") && strings.Contains(bm.Source, ".Add(") {
		t.Errorf("the benchmark calls Add and Freeze, which panics:\n%s", bm.Source)
	}
	if !slices.Contains(bm.Covers, "NewCounter") {
		t.Errorf("covers %q, want the constructor NewCounter", bm.Covers)
	}
	drops := strings.Join(r.Drops, "\n")
	for _, want := range []string{`panicked: boom `, `x.Save("apple") created a file in the working directory (apple)`, "x.Release() crashed the process: fatal error: sync: unlock of unlocked mutex", "panicked, leaving the other goroutines blocked: counter: Take of an empty key", "x.Hang() deadlocked or outlasted its deadline"} {
		if !strings.Contains(drops, want) {
			t.Errorf("drops:\n%s\nwant a line with %q", drops, want)
		}
	}
	wantSkipped := []Skipped{{"(*Counter).Close", "ends the instance's life"}, {"(*Counter).Each", "no value pool for a parameter of type func(key string, n int)"}}
	if !slices.Equal(r.Skipped, wantSkipped) {
		t.Errorf("skipped %q, want %q", r.Skipped, wantSkipped)
	}
	runEmitted(t, e, dir, pkg, r.Benchmarks)
	if left, _ := filepath.Glob(filepath.Join(tmp, "speedgun-*")); len(left) > 0 {
		t.Errorf("left behind: %q", left)
	}
}

// runEmitted builds the package's tests with File's output added and runs
// its benchmarks for 50 iterations.
func runEmitted(t *testing.T, e *engine.Engine, dir string, pkg *mutate.Package, bs []Benchmark) {
	t.Helper()
	src, err := File(pkg.Name, bs)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ov, _, err := engine.WriteOverlay(tmp, dir, map[string][]byte{filepath.Join(pkg.Dir, "perfmut_gen_test.go"): src})
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "gen.test")
	if _, err := e.GoTestC(context.Background(), dir, pkg.ImportPath, bin, ov, results.Opt); err != nil {
		t.Fatalf("the emitted file does not build: %v\n%s", err, src)
	}
	res, err := proc.Run(context.Background(), pkg.Dir, nil, time.Minute, bin, "-test.run=^$", "-test.bench=.", "-test.benchtime=50x")
	if err != nil || !res.OK() {
		t.Fatalf("the emitted benchmarks fail: %v\n%s", err, res.Output)
	}
	for _, b := range bs {
		if !bytes.Contains(res.Output, []byte(b.Name)) || !bytes.Contains(res.Output, []byte(" p99.9-ns/op")) {
			t.Errorf("%s did not run or report p99.9-ns/op:\n%s", b.Name, res.Output)
		}
	}
	if _, err := os.Stat(filepath.Join(pkg.Dir, "perfmut_gen_test.go")); err == nil {
		t.Errorf("the module was written")
	}
}
