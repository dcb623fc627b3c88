package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// A Workspace is one version of a module with its optimized test binaries,
// measured without mutants: what perfmut compare builds, covers and
// measures on each side. It is an Engine of the version's module whose
// baseline is the binaries Build builds (results.Opt only).
type Workspace struct {
	*Engine
	hasTests map[string]bool // package -> Build built its test binary
}

// NewWorkspace returns an empty workspace of cfg's module that keeps its
// binaries and coverage files in tmp and logs through prog.
func NewWorkspace(cfg Config, tmp string, prog *Progress) (*Workspace, error) {
	w := &Workspace{Engine: New(cfg, tmp, prog), hasTests: map[string]bool{}}
	w.SetBaseline(map[string]map[string]string{results.Opt: {}})
	if err := os.MkdirAll(filepath.Join(tmp, "cover"), 0o755); err != nil {
		return nil, err
	}
	return w, nil
}

// Dir is the module's directory.
func (w *Workspace) Dir() string { return w.cfg.Module.Dir }

// AddPackage adds a package of the module.
func (w *Workspace) AddPackage(p *mutate.Package) { w.pkgs[p.ImportPath] = p }

// Package returns the package with import path pkg, or nil.
func (w *Workspace) Package(pkg string) *mutate.Package { return w.pkgs[pkg] }

// Binary is pkg's test binary, "" until Build built one.
func (w *Workspace) Binary(pkg string) string { return w.bins[results.Opt][pkg] }

// HasTests reports whether Build built a test binary for pkg.
func (w *Workspace) HasTests(pkg string) bool { return w.hasTests[pkg] }

// Warnings are the warnings logged so far.
func (w *Workspace) Warnings() []string { return w.Engine.Warnings }

// Build builds the test binaries of pkgs (import paths) not built yet, in
// parallel; name (OLD, NEW) and rev say which version this is in the log
// and the errors.
func (w *Workspace) Build(ctx context.Context, pkgs []string, name, rev string) error {
	r := w
	var todo []string
	for _, p := range pkgs {
		if r.pkgs[p] != nil && r.bins[results.Opt][p] == "" && !r.hasTests[p] {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	r.Prog.Logf("perfmut: building the tests of %s of %s", english.Plural(len(todo), "package"), name)
	bins := make([]string, len(todo))
	err := r.Parallel(ctx, len(todo), func(i int) error {
		bin := filepath.Join(r.Tmp, SafeName(todo[i])+".test")
		ok, err := r.GoTestC(ctx, r.cfg.Module.Dir, todo[i], bin, "", results.Opt)
		var be *BuildError
		if errors.As(err, &be) {
			return fmt.Errorf("%s (%s) does not build: %s", name, rev, be.Reason())
		}
		if err != nil {
			return err
		}
		if ok {
			bins[i] = bin
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, p := range todo {
		if bins[i] != "" {
			r.bins[results.Opt][p] = bins[i]
			r.hasTests[p] = true
		}
	}
	return nil
}

// ListBenchmarks lists the benchmarks in pkg's test binary.
func (w *Workspace) ListBenchmarks(ctx context.Context, pkg string) ([]string, error) {
	names, _, err := w.Engine.ListBenchmarks(ctx, w.pkgs[pkg], w.Binary(pkg))
	return names, err
}

// CoverBenchmarks runs the benchmarks of pkgs with coverage of coverpkg.
func (w *Workspace) CoverBenchmarks(ctx context.Context, pkgs []*mutate.Package, coverpkg []string) ([]*BenchCoverage, error) {
	return w.Engine.CoverBenchmarks(ctx, w.hasTests, pkgs, coverpkg)
}

// Iters chooses b's iteration count per sample on this version.
func (w *Workspace) Iters(ctx context.Context, b Benchmark) (BenchIters, error) {
	return w.Engine.Iters(ctx, results.Opt, b)
}

// BenchOnce runs one sample of b with it's iteration count from the
// binary bin in dir (this version's or another's), within timeout.
func (w *Workspace) BenchOnce(ctx context.Context, bin, dir string, b Benchmark, it BenchIters, timeout time.Duration) (map[string]float64, proc.Result, error) {
	return w.Engine.BenchOnce(ctx, bin, dir, b, w.cfg.benchtimeArg(it), timeout)
}

// CensorCap is the time after which a sample of it is censored, given
// the slowest sample of the other side (0: no censoring).
func (w *Workspace) CensorCap(it BenchIters, slowest time.Duration) time.Duration {
	return w.cfg.CensorCap(it, slowest)
}

// Logf logs a line.
func (w *Workspace) Logf(format string, args ...any) { w.Prog.Logf(format, args...) }

// Counted reports whether compare counts b's instructions: the campaign
// counts (-measure instructions) and b runs its code from one goroutine
// (a concurrent benchmark's cost may be contention, which only wall time
// sees).
func (w *Workspace) Counted(b Benchmark) bool {
	return w.cfg.Counting != nil && !w.count.concurrent(w.pkgs, b)
}

// CountIters is the iteration count of b's counted samples on this
// version, found once from counts alone (see countIters).
func (w *Workspace) CountIters(ctx context.Context, b Benchmark) (int, error) {
	n, _, err := w.count.countIters(ctx, w.Engine, w.sites(), results.Opt, b)
	return n, err
}

// CountSample counts one sample of b at n iterations in the binary bin in
// dir (this version's or another's).
func (w *Workspace) CountSample(ctx context.Context, bin, dir string, b Benchmark, n int) (instr.Sample, error) {
	sp := w.sampler()
	return sp.Sample(ctx, instr.Bench{Bin: bin, Dir: dir, Pattern: b.Pattern()}, n)
}
