package instr

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestNoVgdbPipes: a counted run makes no vgdb FIFOs in TMPDIR (valgrind
// makes three per process unless --vgdb=no, and a run killed by SIGKILL
// or a timeout leaves them there for good).
func TestNoVgdbPipes(t *testing.T) {
	s, bench := workSampler(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var seen atomic.Value
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if m, _ := filepath.Glob(filepath.Join(tmp, "vgdb-pipe-*")); len(m) > 0 {
				seen.Store(m)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	_, err := s.Count(context.Background(), bench("^BenchmarkWork$"), 1000)
	stop()
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if m := seen.Load(); m != nil {
		t.Errorf("valgrind made vgdb FIFOs: %v", m)
	}
}
