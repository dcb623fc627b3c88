package runner

import (
	"context"
	"fmt"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// Duplicate mutants: two mutants whose mutated package compiles to the same
// code at a level are the same program there, so they share one result.
// The first mutant with a given code (by fingerprint, see
// funcCode.fingerprint) is built, tested and measured; a later one waits
// for its result and copies it, naming it in DuplicateOf.

// codeOwner is the first mutant seen with some code at a level.
type codeOwner struct {
	id   string
	done chan struct{} // closed when its result is recorded
}

// duplicate returns the result of the mutant that compiled to code print
// at level before m, once it is recorded, or nil if m is the first (it
// then owns the code) or that mutant ended without a result.
func (r *run) duplicate(ctx context.Context, m mutate.Mutant, level, print string) (*results.LevelResult, error) {
	key := level + "\x00" + m.Package + "\x00" + print
	r.mu.Lock()
	if r.dedup.owners == nil {
		r.dedup.owners = map[string]*codeOwner{}
		r.dedup.ownerDone = map[resultKey]chan struct{}{}
	}
	first := r.dedup.owners[key]
	if first == nil {
		done := make(chan struct{})
		r.dedup.owners[key] = &codeOwner{id: m.ID, done: done}
		r.dedup.ownerDone[resultKey{m.ID, level}] = done
		r.mu.Unlock()
		return nil, nil
	}
	r.mu.Unlock()
	select {
	case <-first.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	r.mu.Lock()
	fr := r.results[resultKey{first.id, level}]
	r.mu.Unlock()
	if fr == nil {
		return nil, nil
	}
	lr := *fr
	lr.DuplicateOf = first.id
	lr.Reason = fmt.Sprintf("compiles at %s to the same code as %s: %s", level, first.id, fr.Status)
	if fr.Reason != "" {
		lr.Reason += " (" + fr.Reason + ")"
	}
	lr.Seconds, lr.BuildSeconds, lr.TestSeconds, lr.MeasureSeconds = 0, 0, 0, 0
	return &lr, nil
}

// ownerRecorded wakes the duplicates waiting for the result of id at
// level; r.mu is held.
func (r *run) ownerRecorded(id, level string) {
	if ch := r.dedup.ownerDone[resultKey{id, level}]; ch != nil {
		close(ch)
		delete(r.dedup.ownerDone, resultKey{id, level})
	}
}
