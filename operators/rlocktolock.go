package operators

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/perfmut/perfmut/mutate"
)

// RLockToLock turns a read lock of a sync.RWMutex into the write lock.
var RLockToLock = &mutate.Operator{
	Name:       "rlock-to-lock",
	Quadrant:   mutate.Q4,
	Cost:       mutate.CostContention,
	Contention: mutate.ContentionWorse,
	Doc: mutate.Doc{
		Title: "take the write lock where a read lock suffices",
		Body: `Replaces RLock of a sync.RWMutex with Lock, and every RUnlock of the same
receiver that follows in the function (plain or deferred, up to the next lock
of it) with Unlock: readers serialize, which only parallel readers notice. A
function that takes the read lock again while holding it (re-entrant read
locking, which RWMutex allows but discourages) deadlocks; the tests filter
that mutant as a timeout.`,
		Before: `mu.RLock()
defer mu.RUnlock()
sum += x`,
		After: `mu.Lock()
defer mu.Unlock()
sum += x`,
	},
	Run: runRLockToLock,
}

func runRLockToLock(pass *mutate.Pass) {
	f := newFile(pass)
	for _, c := range criticalSections(f) {
		if !c.read() || !writeLockable(f.Info, f.Pkg, c.lock.sel) {
			continue
		}
		edits := []mutate.Edit{f.replace(c.lock.sel.Sel, "Lock")}
		for _, u := range c.unlocks {
			edits = append(edits, f.replace(u.sel.Sel, "Unlock"))
		}
		f.Report(mutate.Site{
			Node:        c.lock.call,
			Description: fmt.Sprintf("take the write lock at %s (and Unlock at %s)", f.short(c.lock.call), unlockLines(f, c.unlocks)),
			Edits:       edits,
		})
	}
}

// writeLockable reports whether X.Lock and X.Unlock of the read lock call
// X.RLock are sync.RWMutex's (no method of X's type shadows them).
func writeLockable(info *types.Info, pkg *types.Package, sel *ast.SelectorExpr) bool {
	t := info.TypeOf(sel.X)
	if t == nil {
		return false
	}
	for _, name := range []string{"Lock", "Unlock"} {
		obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
		if fn, ok := obj.(*types.Func); !ok || !isSyncLockMethod(fn) {
			return false
		}
	}
	return true
}

// unlockLines lists the lines of unlock calls ("line 12, 15").
func unlockLines(f *file, us []lockCall) string {
	s := "line "
	if len(us) > 1 {
		s = "lines "
	}
	for i, u := range us {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(f.line(u.call.Pos()))
	}
	return s
}
