package engine

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/perfmut/perfmut/score"
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

// A Progress is what a campaign prints while it runs: one log line per
// finished mutant and level, and on a terminal a status line redrawn with
// the counts per status and an estimate of the time left. It is also the
// log of an Engine, and of the commands that use one.
type Progress struct {
	mu     sync.Mutex
	w      io.Writer
	tty    bool
	total  int
	done   int
	start  time.Time
	counts map[score.Status]int
	drawn  bool
	stop   chan struct{}
	ended  bool
	begun  time.Time // start of the mutants (after the baseline), for the ETA
}

// Begin marks the start of the mutants' phase.
func (p *Progress) Begin() {
	p.mu.Lock()
	p.begun = time.Now()
	p.mu.Unlock()
}

// NewProgress returns a Progress of total mutant-levels that writes to w
// (nil: nowhere), redrawing a status line when tty is set.
func NewProgress(w io.Writer, tty bool, total int) *Progress {
	if w == nil {
		w = io.Discard
	}
	p := &Progress{w: w, tty: tty, total: total, start: time.Now(), counts: map[score.Status]int{}, stop: make(chan struct{})}
	if tty {
		// Redraw every second, so the elapsed time moves while a long
		// measurement runs.
		go func() {
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-p.stop:
					return
				case <-t.C:
					p.mu.Lock()
					p.clear()
					p.draw()
					p.mu.Unlock()
				}
			}
		}()
	}
	return p
}

// logf prints a log line (above the progress line on a terminal).
func (p *Progress) Logf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(p.w, format+"\n", args...)
	p.draw()
}

// finished records one finished mutant-level.
func (p *Progress) Finished(what, level string, st score.Status, detail string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.counts[st]++
	if p.tty {
		p.clear()
		p.draw()
		return
	}
	if detail != "" {
		detail = " (" + detail + ")"
	}
	fmt.Fprintf(p.w, "perfmut: [%d/%d] %s %s: %s%s\n", p.done, p.total, what, level, st, detail)
}

func (p *Progress) line() string {
	var parts []string
	for _, s := range score.Statuses {
		if n := p.counts[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s, n))
		}
	}
	eta := "ETA --"
	if p.done > 0 && p.done < p.total {
		from := p.begun
		if from.IsZero() {
			from = p.start
		}
		el := time.Since(from)
		rem := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		eta = "ETA " + rem.Round(time.Second).String()
	} else if p.done >= p.total {
		eta = "done"
	}
	if len(parts) == 0 {
		return fmt.Sprintf("perfmut: %d/%d  %s  %s", p.done, p.total, time.Since(p.start).Round(time.Second), eta)
	}
	return fmt.Sprintf("perfmut: %d/%d  %s  %s  %s", p.done, p.total, strings.Join(parts, ", "), time.Since(p.start).Round(time.Second), eta)
}

func (p *Progress) clear() {
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *Progress) draw() {
	if p.tty && p.total > 0 {
		fmt.Fprint(p.w, p.line())
		p.drawn = true
	}
}

// end finishes the progress line.
func (p *Progress) End() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ended {
		p.ended = true
		close(p.stop)
	}
	if p.tty && p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// Skip takes n mutant-levels off the total (they need not run after all)
// and returns how many are left.
func (p *Progress) Skip(n int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total -= n
	return p.total
}
