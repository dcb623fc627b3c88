package operators

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/perfmut/perfmut/mutate"
)

// CapHintDrop drops capacity hints.
var CapHintDrop = &mutate.Operator{
	Name:     "cap-hint-drop",
	Quadrant: mutate.Q4,
	Cost:     mutate.CostAlloc,
	Doc: mutate.Doc{
		Title: "drop capacity hints",
		Body: `Drops the capacity argument of make([]T, n, c) and the size hint of
make(map[K]V, h), and removes Grow(n) statements on strings.Builder and
bytes.Buffer values, so the slice, map or buffer grows step by step. Sites
whose dropped expression has a side effect (a call other than a conversion
or len/cap/min/max, a channel receive) or is the last use of a local variable
or import are skipped, as is make([]T, n, n), and a slice whose capacity
may be read anywhere its value flows in the package (variables, fields,
parameters and results of the package's functions, appends and reslices):
passed to cap, resliced up to a bound other than 0 or its length
(s[:cap(s)], s[:n+27], s[i:j:k]), or gone where the flow cannot be followed
(a function value, another package of the module, an element, a pointer),
where the dropped capacity would make the program panic. The standard
library and callers outside the package are taken not to read it.`,
		Before: `out := make([]string, 0, len(in))
var b strings.Builder
b.Grow(64)`,
		After: `out := make([]string, 0)
var b strings.Builder
`,
	},
	Run: runCapHintDrop,
}

func runCapHintDrop(pass *mutate.Pass) {
	f := newFile(pass)
	var flow *capFlow // built at the first slice with a capacity hint
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			capHint(f, n, &flow)
		case *ast.ExprStmt:
			if len(stack) == 0 || !slices.Contains(stmtList(stack[len(stack)-1]), ast.Stmt(n)) {
				return true // labeled, a select case's comm, or a header's init or post statement
			}
			if call, ok := n.X.(*ast.CallExpr); ok {
				growCall(f, n, call)
			}
		}
		return true
	})
}

func capHint(f *file, call *ast.CallExpr, flow **capFlow) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || call.Ellipsis.IsValid() || len(call.Args) < 2 {
		return
	}
	if b, ok := f.Info.Uses[id].(*types.Builtin); !ok || b.Name() != "make" {
		return
	}
	t := f.Info.TypeOf(call.Args[0])
	if t == nil {
		return
	}
	var keep int // arguments kept
	what := "capacity"
	switch t.Underlying().(type) {
	case *types.Slice:
		if len(call.Args) != 3 || f.text(call.Args[1]) == f.text(call.Args[2]) {
			return
		}
		if *flow == nil {
			*flow = newCapFlow(f)
		}
		if (*flow).capacityRead(call) {
			return
		}
		keep = 2
	case *types.Map:
		if len(call.Args) != 2 {
			return
		}
		keep, what = 1, "size hint"
	default:
		return
	}
	hint := call.Args[keep]
	if !f.pure(hint) || !f.removable(nil, hint) {
		return
	}
	f.Report(mutate.Site{
		Node:        call,
		Description: fmt.Sprintf("drop %s %s of make(%s, ...)", what, f.short(hint), f.short(call.Args[0])),
		Edits:       []mutate.Edit{f.del(call.Args[keep-1].End(), hint.End())},
	})
}

// growCall removes a statement b.Grow(n) on a strings.Builder or
// bytes.Buffer.
func growCall(f *file, stmt *ast.ExprStmt, call *ast.CallExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Grow" {
		return
	}
	fn := f.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	switch fn.FullName() {
	case "(*strings.Builder).Grow", "(*bytes.Buffer).Grow":
	default:
		return
	}
	if !f.pure(sel.X) || !f.pure(call.Args[0]) || !f.removable(nil, call) {
		return
	}
	f.Report(mutate.Site{
		Node:        stmt,
		Description: fmt.Sprintf("remove %s", f.short(call)),
		Edits:       []mutate.Edit{f.delStmt(stmt)},
	})
}
