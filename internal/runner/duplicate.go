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
// then owns the code) or that mutant ended without a result; result
// looks up a recorded result.
func (d *dedupState) duplicate(ctx context.Context, result func(resultKey) *results.LevelResult, m mutate.Mutant, level, print string) (*results.LevelResult, error) {
	key := level + "\x00" + m.Package + "\x00" + print
	d.mu.Lock()
	if d.owners == nil {
		d.owners = map[string]*codeOwner{}
		d.ownerDone = map[resultKey]chan struct{}{}
	}
	first := d.owners[key]
	if first == nil {
		done := make(chan struct{})
		d.owners[key] = &codeOwner{id: m.ID, done: done}
		d.ownerDone[resultKey{m.ID, level}] = done
		d.mu.Unlock()
		return nil, nil
	}
	d.mu.Unlock()
	select {
	case <-first.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	fr := result(resultKey{first.id, level})
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
// level, once that result is recorded.
func (d *dedupState) ownerRecorded(id, level string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if ch := d.ownerDone[resultKey{id, level}]; ch != nil {
		close(ch)
		delete(d.ownerDone, resultKey{id, level})
	}
}
