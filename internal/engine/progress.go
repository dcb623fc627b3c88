package engine

import (
	"io"
	"os"
	"time"
)

// tick calls f every d until the returned stop is called.
func tick(d time.Duration, f func()) (stop func()) {
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

// IsTerminal reports whether w is a terminal, where the log can show a
// progress line (Measurement.Progress).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
