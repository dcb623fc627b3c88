package operators

import (
	"go/ast"
	"go/types"
	"strings"
)

// A lockCall is a call of Lock, Unlock, RLock or RUnlock of a sync.Mutex or
// sync.RWMutex (also through an embedded field).
type lockCall struct {
	call   *ast.CallExpr
	sel    *ast.SelectorExpr // X.Lock
	recv   string            // X's source text without white space
	method string            // "Lock", "Unlock", "RLock" or "RUnlock"
	body   *ast.BlockStmt    // the innermost enclosing function body
	stmt   *ast.ExprStmt     // the call's statement, if it is one in a statement list
}

// A criticalSection is a Lock or RLock statement whose unlock follows in
// the same function, plainly or deferred.
type criticalSection struct {
	lock    lockCall
	unlocks []lockCall // from the lock to the next lock of recv in the function
	stack   []ast.Node // the lock statement's ancestors
}

// read reports whether the section holds a read lock.
func (c criticalSection) read() bool { return c.lock.method == "RLock" }

// criticalSections returns the file's critical sections in source order.
// The unlocks of a section are the matching unlocks (Unlock for Lock,
// RUnlock for RLock) of the same receiver text after the lock, up to the
// next Lock or RLock of that receiver, anywhere in the function that takes
// the lock (function literals in it included, e.g. a deferred closure).
func criticalSections(f *file) []criticalSection {
	var calls []lockCall
	stacks := map[*ast.CallExpr][]ast.Node{}
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) > 0 {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !isSyncLockMethod(f.callee(call)) {
			return true
		}
		body := enclosingBody(stack)
		if body == nil {
			return true
		}
		lc := lockCall{call: call, sel: sel, recv: strings.Join(strings.Fields(f.text(sel.X)), ""), method: sel.Sel.Name, body: body}
		if s, isStmt := stack[len(stack)-1].(*ast.ExprStmt); isStmt && len(stack) >= 2 {
			switch stack[len(stack)-2].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				lc.stmt = s
			}
		}
		calls = append(calls, lc)
		stacks[call] = append([]ast.Node(nil), stack...)
		return true
	})
	var out []criticalSection
	for i, l := range calls {
		if l.stmt == nil || (l.method != "Lock" && l.method != "RLock") {
			continue
		}
		want := "Unlock"
		if l.method == "RLock" {
			want = "RUnlock"
		}
		sec := criticalSection{lock: l, stack: stacks[l.call]}
		for _, u := range calls[i+1:] {
			if u.call.Pos() > l.body.End() {
				break
			}
			if u.recv != l.recv {
				continue
			}
			if u.method == "Lock" || u.method == "RLock" {
				break
			}
			if u.method == want {
				sec.unlocks = append(sec.unlocks, u)
			}
		}
		if len(sec.unlocks) > 0 {
			out = append(out, sec)
		}
	}
	return out
}

// isSyncLockMethod reports whether fn is Lock, Unlock, RLock or RUnlock of
// sync.Mutex or sync.RWMutex.
func isSyncLockMethod(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch fn.Name() {
	case "Lock", "Unlock", "RLock", "RUnlock":
	default:
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	p, _ := sig.Recv().Type().(*types.Pointer)
	if p == nil {
		return false
	}
	n, _ := types.Unalias(p.Elem()).(*types.Named)
	return n != nil && (n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex")
}
