package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// An Engine builds a module's test binaries (with a mutant's files
// through an overlay), runs their tests, covers their benchmarks, and
// measures a Job: baseline and mutant benchmarks sampled in alternating
// rounds until the configuration's rule decides. It is made from a Config
// and knows nothing of campaigns: which mutants, in which order, and what
// becomes of their results are its caller's.
type Engine struct {
	cfg  Config
	Tmp  string    // private temp dir; its creator removes it
	Prog *Progress // the log and progress line

	warnMu   sync.Mutex
	Warnings []string // for report.json (see Warnf); under warnMu

	pkgs  map[string]*mutate.Package   // the loaded packages by import path
	bins  map[string]map[string]string // level -> package -> baseline test binary (SetBaseline)
	itc   itersCache                   // each benchmark's iteration count by level
	count countState                   // -measure instructions' cached counts
	noise noiseState                   // the machine's noise, from the baseline's samples
}

// New returns an engine of cfg that keeps its files in tmp and logs
// through prog (nil: discard).
func New(cfg Config, tmp string, prog *Progress) *Engine {
	if prog == nil {
		prog = NewProgress(nil, false, 0)
	}
	e := &Engine{cfg: cfg, Tmp: tmp, Prog: prog, pkgs: map[string]*mutate.Package{}, itc: itersCache{}}
	for _, p := range cfg.Packages {
		e.pkgs[p.ImportPath] = p
	}
	e.noise.start = takeSnapshot()
	return e
}

// SetBaseline gives the engine the baseline's test binaries (level ->
// package -> binary), which Iters and Measure run.
func (e *Engine) SetBaseline(bins map[string]map[string]string) { e.bins = bins }

// sites finds the baseline's benchmarks.
func (e *Engine) sites() benchSites { return benchSites{e.bins, e.pkgs} }

// Iters is how benchmark b is sampled at level (see itersCache.iters).
func (e *Engine) Iters(ctx context.Context, level string, b Benchmark) (BenchIters, error) {
	return e.itc.iters(ctx, e, &e.noise, e.sites(), level, b)
}

// Noise is the machine's noise so far, for report.json: its load at the
// engine's start and now, what the baseline's samples say of each
// benchmark, and advice on the benchmarks for which matters(level, name,
// unit) is true (those that left mutants undecided) when their noise hides
// the slowdown that matters.
func (e *Engine) Noise(matters func(level, name, unit string) bool) *results.Noise {
	return e.noise.summary(&e.cfg, matters)
}

// Warnf logs a warning and keeps it for report.json.
func (e *Engine) Warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	e.warnMu.Lock()
	e.Warnings = append(e.Warnings, msg)
	e.warnMu.Unlock()
	e.Prog.Logf("perfmut: warning: %s", msg)
}

// StepProgress logs "perfmut: STEP: k of n done (elapsed)" every 10 s
// until stop is called; the caller counts finished jobs in done.
func (e *Engine) StepProgress(step string, n int) (done *atomic.Int64, stop func()) {
	start := time.Now()
	done = new(atomic.Int64)
	stop = tick(10*time.Second, func() {
		e.Prog.Logf("perfmut: %s: %d of %d done (%s)", step, done.Load(), n, time.Since(start).Round(time.Second))
	})
	return done, stop
}

// LogCmd shows a command with -v.
func (e *Engine) LogCmd(dir, name string, args ...string) {
	if !e.cfg.Verbose {
		return
	}
	q := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " \t'\"$*?[]()|&;<>\\") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	e.Prog.Logf("cd %s && %s %s", dir, name, strings.Join(q, " "))
}

// Parallel runs f(0..n-1) on up to Jobs goroutines and returns the first
// error; the others stop early.
func (e *Engine) Parallel(ctx context.Context, n int, f func(i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < e.cfg.Jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(i); err != nil {
					cancel(err)
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return ctx.Err()
}

// Config is the configuration the engine was built from.
func (e *Engine) Config() Config { return e.cfg }
