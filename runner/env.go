package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perfmut/perfmut/internal/progress"
)

// env is what every phase of a run uses and none owns: the engine's
// configuration, the private temp dir, the progress log and the warnings
// for report.json.
type env struct {
	cfg  Config
	tmp  string // private temp dir, removed at the end
	prog *progress.Progress

	warnMu   sync.Mutex
	warnings []string // for report.json (see warnf); under warnMu
}

// warnf logs a warning and keeps it for report.json.
func (e *env) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	e.warnMu.Lock()
	e.warnings = append(e.warnings, msg)
	e.warnMu.Unlock()
	e.prog.Logf("perfmut: warning: %s", msg)
}

// stepProgress logs "perfmut: STEP: k of n done (elapsed)" every 10 s
// until stop is called; the caller counts finished jobs in done.
func (e *env) stepProgress(step string, n int) (done *atomic.Int64, stop func()) {
	start := time.Now()
	done = new(atomic.Int64)
	stop = tick(10*time.Second, func() {
		e.prog.Logf("perfmut: %s: %d of %d done (%s)", step, done.Load(), n, time.Since(start).Round(time.Second))
	})
	return done, stop
}

// logCmd shows a command with -v.
func (e *env) logCmd(dir, name string, args ...string) {
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
	e.prog.Logf("cd %s && %s %s", dir, name, strings.Join(q, " "))
}

// parallel runs f(0..n-1) on up to Jobs goroutines and returns the first
// error; the others stop early.
func (e *env) parallel(ctx context.Context, n int, f func(i int) error) error {
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
func (e *env) Config() Config { return e.cfg }
