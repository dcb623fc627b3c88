package runner

import "sync"

// builders is what the measurer knows of the workers that build and test
// mutants: how many are at work (not waiting for the measurement queue or
// for another mutant's result). Measurement and builds never overlap (the
// run's quiet lock); the measurer waits until the builders are idle or
// the queue is full before it measures, and then measures every queued
// job in one go, so that the builds run in bursts on every worker at once
// rather than one beside an idle worker between two measurements.
type builders struct {
	mu   sync.Mutex
	cond *sync.Cond
	busy int
}

func newBuilders() *builders {
	b := &builders{}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// add counts a worker starting (d = 1) or stopping (d = -1) work.
func (b *builders) add(d int) {
	b.mu.Lock()
	b.busy += d
	b.mu.Unlock()
	b.cond.Broadcast()
}

// waiting runs f, a wait for something other than the worker's own work,
// with the worker counted as idle.
func (b *builders) waiting(f func()) {
	b.add(-1)
	defer b.add(1)
	f()
}

// waitIdle waits until no worker is at work or full reports true.
func (b *builders) waitIdle(full func() bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.busy > 0 && !full() {
		b.cond.Wait()
	}
}
