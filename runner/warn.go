package runner

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// DefaultBenchTimeout is the default Campaign.BenchTimeout.
const DefaultBenchTimeout = 2 * time.Minute

// warnf logs a warning and keeps it for report.json.
func (r *run) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.mu.Lock()
	r.warnings = append(r.warnings, msg)
	r.mu.Unlock()
	r.prog.Logf("perfmut: warning: %s", msg)
}

// tick calls f every d until the returned stop is called.
func (r *run) tick(d time.Duration, f func()) (stop func()) {
	done := make(chan struct{})
	t := time.NewTicker(d)
	go func() {
		for {
			select {
			case <-t.C:
				f()
			case <-done:
				return
			}
		}
	}()
	return func() { t.Stop(); close(done) }
}

// stepProgress logs "perfmut: STEP: k of n done (elapsed)" every 10 s
// until stop is called; the caller counts finished jobs in done.
func (r *run) stepProgress(step string, n int) (done *atomic.Int64, stop func()) {
	start := time.Now()
	done = new(atomic.Int64)
	stop = r.tick(10*time.Second, func() {
		r.prog.Logf("perfmut: %s: %d of %d done (%s)", step, done.Load(), n, time.Since(start).Round(time.Second))
	})
	return done, stop
}

// IsTerminal reports whether w is a terminal, where a Campaign can draw its
// progress line (Campaign.Progress).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
