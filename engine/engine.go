package engine

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
type Engine struct {
	Cfg  Config
	Tmp  string // private temp dir, removed at the end
	Prog *progress.Progress

	warnMu   sync.Mutex
	Warnings []string // for report.json (see warnf); under warnMu
}

// warnf logs a warning and keeps it for report.json.
func (e *Engine) Warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	e.warnMu.Lock()
	e.Warnings = append(e.Warnings, msg)
	e.warnMu.Unlock()
	e.Prog.Logf("perfmut: warning: %s", msg)
}

// stepProgress logs "perfmut: STEP: k of n done (elapsed)" every 10 s
// until stop is called; the caller counts finished jobs in done.
func (e *Engine) StepProgress(step string, n int) (done *atomic.Int64, stop func()) {
	start := time.Now()
	done = new(atomic.Int64)
	stop = tick(10*time.Second, func() {
		e.Prog.Logf("perfmut: %s: %d of %d done (%s)", step, done.Load(), n, time.Since(start).Round(time.Second))
	})
	return done, stop
}

// logCmd shows a command with -v.
func (e *Engine) LogCmd(dir, name string, args ...string) {
	if !e.Cfg.Verbose {
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

// parallel runs f(0..n-1) on up to Jobs goroutines and returns the first
// error; the others stop early.
func (e *Engine) Parallel(ctx context.Context, n int, f func(i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < e.Cfg.Jobs; w++ {
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
func (e *Engine) Config() Config { return e.Cfg }
