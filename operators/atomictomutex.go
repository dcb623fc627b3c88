package operators

import (
	"go/ast"

	"github.com/perfmut/perfmut/mutate"
)

// AtomicToMutex runs an atomic operation under a shared mutex.
var AtomicToMutex = &mutate.Operator{
	Name:       "atomic-to-mutex",
	Quadrant:   mutate.Q4,
	Cost:       mutate.CostContention,
	Contention: mutate.ContentionWorse,
	Doc: mutate.Doc{
		Title: "guard an atomic operation with a shared mutex",
		Body: `Wraps a call of a sync/atomic function or of a method of its types
(atomic.Int64, atomic.Pointer, atomic.Value, ...) in a closure run under one
package-level sync.Mutex that every such mutant of the package shares: the
result is the same, but concurrent callers serialize. A result in use is
passed out through a named result of a function literal (no generics, so
any Go version will do); calls in go and defer statements are left alone,
since the closure would move the evaluation of their arguments.`,
		Before: `if hits.Add(1)%1000 == 0 {
	flush()
}`,
		After: `if func() (perfmut_v int64) { perfmut_atomicDo(func() { perfmut_v = hits.Add(1) }); return }()%1000 == 0 {
	flush()
}`,
	},
	Helper: `// perfmut_atomicMu is the mutex every mutated atomic operation shares.
var perfmut_atomicMu sync.Mutex

// perfmut_atomicDo runs f with perfmut_atomicMu held.
func perfmut_atomicDo(f func()) {
	perfmut_atomicMu.Lock()
	defer perfmut_atomicMu.Unlock()
	f()
}
`,
	HelperImports: []string{"sync"},
	Run:           runAtomicToMutex,
}

// atomicNames are the helper's identifiers and import names.
var atomicNames = helperNames{calls: []string{"perfmut_atomicDo"}, pkgLevel: []string{"perfmut_atomicMu", "sync"}}

func runAtomicToMutex(pass *mutate.Pass) {
	f := newFile(pass)
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(stack) == 0 {
			return true
		}
		if fn := f.callee(call); fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
			return true
		}
		if !f.helperUsable(call.Pos(), atomicNames.calls, atomicNames.pkgLevel) {
			return true
		}
		open, close := "perfmut_atomicDo(func() { ", " })"
		switch stack[len(stack)-1].(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return true
		case *ast.ExprStmt:
		default:
			t := f.Info.TypeOf(call)
			if t == nil {
				return true
			}
			typ, ok := f.typeExpr(t, call.Pos())
			if !ok {
				return true
			}
			open, close = "func() (perfmut_v "+typ+") { perfmut_atomicDo(func() { perfmut_v = ", " }); return }()"
		}
		f.Report(mutate.Site{
			Node:        call,
			Description: "run " + f.short(call) + " under a mutex shared by the package's atomic operations",
			Edits: []mutate.Edit{
				{Start: f.off(call.Pos()), End: f.off(call.Pos()), New: open},
				{Start: f.off(call.End()), End: f.off(call.End()), New: close},
			},
		})
		return true
	})
}
