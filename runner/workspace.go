package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/perfmut/perfmut/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/internal/progress"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// A Workspace is one version of a module with its optimized test binaries,
// measured without mutants: what perfmut compare builds, covers and
// measures on each side. It uses the Campaign's build and measurement
// settings (Module.Dir, Tags, Benchtime, timeouts, CensorFactor) and
// nothing of its campaign: no mutants, no journal, no output directory.
type Workspace struct {
	c *Campaign
	engine.Engine
	pkgs  map[string]*mutate.Package // the packages added, by import path
	base  baseline                   // the test binaries built (results.Opt only)
	iters itersCache
	count countState
	noise noiseState
}

// NewWorkspace returns an empty workspace of c's module that keeps its
// binaries and coverage files in tmp and logs through prog.
func NewWorkspace(c *Campaign, tmp string, prog *progress.Progress) (*Workspace, error) {
	w := &Workspace{c: c, Engine: engine.Engine{Cfg: c.config(), Tmp: tmp, Prog: prog}, pkgs: map[string]*mutate.Package{},
		iters: itersCache{},
		base:  baseline{hasTests: map[string]bool{}, bins: map[string]map[string]string{results.Opt: {}}}}
	if err := os.MkdirAll(filepath.Join(tmp, "cover"), 0o755); err != nil {
		return nil, err
	}
	return w, nil
}

// sites finds the workspace's benchmarks.
func (w *Workspace) sites() benchSites { return benchSites{w.base.bins, w.pkgs} }

// Dir is the module's directory.
func (w *Workspace) Dir() string { return w.c.Module.Dir }

// AddPackage adds a package of the module.
func (w *Workspace) AddPackage(p *mutate.Package) { w.pkgs[p.ImportPath] = p }

// Package returns the package with import path pkg, or nil.
func (w *Workspace) Package(pkg string) *mutate.Package { return w.pkgs[pkg] }

// Binary is pkg's test binary, "" until Build built one.
func (w *Workspace) Binary(pkg string) string { return w.base.bins[results.Opt][pkg] }

// HasTests reports whether Build built a test binary for pkg.
func (w *Workspace) HasTests(pkg string) bool { return w.base.hasTests[pkg] }

// Warnings are the warnings logged so far.
func (w *Workspace) Warnings() []string { return w.Engine.Warnings }

// Build builds the test binaries of pkgs (import paths) not built yet, in
// parallel; name (OLD, NEW) and rev say which version this is in the log
// and the errors.
func (w *Workspace) Build(ctx context.Context, pkgs []string, name, rev string) error {
	r := w
	var todo []string
	for _, p := range pkgs {
		if r.pkgs[p] != nil && r.base.bins[results.Opt][p] == "" && !r.base.hasTests[p] {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	r.Prog.Logf("perfmut: building the tests of %s of %s", english.Plural(len(todo), "package"), name)
	bins := make([]string, len(todo))
	err := r.Parallel(ctx, len(todo), func(i int) error {
		bin := filepath.Join(r.Tmp, engine.SafeName(todo[i])+".test")
		ok, err := r.GoTestC(ctx, r.c.Module.Dir, todo[i], bin, "", results.Opt)
		var be *engine.BuildError
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
			r.base.bins[results.Opt][p] = bins[i]
			r.base.hasTests[p] = true
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
func (w *Workspace) CoverBenchmarks(ctx context.Context, pkgs []*mutate.Package, coverpkg []string) ([]*engine.BenchCoverage, error) {
	return w.Engine.CoverBenchmarks(ctx, w.base.hasTests, pkgs, coverpkg)
}

// Iters chooses b's iteration count per sample on this version.
func (w *Workspace) Iters(ctx context.Context, b engine.Benchmark) (engine.BenchIters, error) {
	return w.iters.iters(ctx, &w.Engine, &w.noise, w.sites(), results.Opt, b)
}

// BenchOnce runs one sample of b with it's iteration count from the
// binary bin in dir (this version's or another's), within timeout.
func (w *Workspace) BenchOnce(ctx context.Context, bin, dir string, b engine.Benchmark, it engine.BenchIters, timeout time.Duration) (map[string]float64, proc.Result, error) {
	return w.Engine.BenchOnce(ctx, bin, dir, b, w.c.BenchtimeArg(it), timeout)
}

// CensorCap is the time after which a sample of it is censored, given
// the slowest sample of the other side (0: no censoring).
func (w *Workspace) CensorCap(it engine.BenchIters, slowest time.Duration) time.Duration {
	return w.c.CensorCap(it, slowest)
}

// Logf logs a line.
func (w *Workspace) Logf(format string, args ...any) { w.Prog.Logf(format, args...) }

// Counted reports whether compare counts b's instructions: the campaign
// counts (-measure instructions) and b runs its code from one goroutine
// (a concurrent benchmark's cost may be contention, which only wall time
// sees).
func (w *Workspace) Counted(b engine.Benchmark) bool {
	return w.c.Counting != nil && !w.count.concurrent(w.pkgs, b)
}

// CountIters is the iteration count of b's counted samples on this
// version, found once (see countIters) from the time mode's count it.N.
func (w *Workspace) CountIters(ctx context.Context, b engine.Benchmark, it engine.BenchIters) (int, error) {
	return w.count.countIters(ctx, &w.Engine, w.sites(), results.Opt, b, it)
}

// CountSample counts one sample of b at n iterations in the binary bin in
// dir (this version's or another's).
func (w *Workspace) CountSample(ctx context.Context, bin, dir string, b engine.Benchmark, n int) (instr.Sample, error) {
	return w.c.Counting.Sampler.Sample(ctx, instr.Bench{Bin: bin, Dir: dir, Pattern: b.Pattern()}, n)
}
