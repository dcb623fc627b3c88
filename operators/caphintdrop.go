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
is read: stored in a variable or field that the file passes to cap or
reslices up to a bound other than 0 or its length (s[:cap(s)], s[:27],
s[i:j:k]), where the dropped capacity would make the program panic.`,
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
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			capHint(f, n, stack)
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

func capHint(f *file, call *ast.CallExpr, stack []ast.Node) {
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
		if v := assignedTo(f, call, stack); v != nil && capacityRead(f, v) {
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

// assignedTo returns the variable or field that call's value is assigned
// to (x := call, x = call, s.f = call, var x = call), or nil.
func assignedTo(f *file, call *ast.CallExpr, stack []ast.Node) types.Object {
	if len(stack) == 0 {
		return nil
	}
	var lhs ast.Expr
	switch p := stack[len(stack)-1].(type) {
	case *ast.AssignStmt:
		if i := slices.Index(p.Rhs, ast.Expr(call)); i >= 0 && len(p.Lhs) == len(p.Rhs) {
			lhs = p.Lhs[i]
		}
	case *ast.ValueSpec:
		if i := slices.Index(p.Values, ast.Expr(call)); i >= 0 && len(p.Names) == len(p.Values) {
			lhs = p.Names[i]
		}
	}
	return refersTo(f, lhs)
}

// refersTo returns the variable or field an identifier or selector
// names, or nil.
func refersTo(f *file, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := f.Info.ObjectOf(e).(*types.Var); ok {
			return v
		}
	case *ast.SelectorExpr:
		if v, ok := f.Info.ObjectOf(e.Sel).(*types.Var); ok {
			return v
		}
	}
	return nil
}

// capacityRead reports whether the file reads the capacity of v: passes
// it to cap, or reslices it up to a bound other than 0 or len(v), or with
// a max index.
func capacityRead(f *file, v types.Object) bool {
	read := false
	ast.Inspect(f.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) == 1 && refersTo(f, n.Args[0]) == v {
				if b, ok := f.Info.Uses[id].(*types.Builtin); ok && b.Name() == "cap" {
					read = true
				}
			}
		case *ast.SliceExpr:
			if refersTo(f, n.X) == v && (n.Max != nil || n.High != nil && !withinLen(f, n.High, v)) {
				read = true
			}
		}
		return !read
	})
	return read
}

// withinLen reports whether a slice bound is 0 or len(v): never past the
// length, whatever the capacity.
func withinLen(f *file, high ast.Expr, v types.Object) bool {
	if tv, ok := f.Info.Types[high]; ok && tv.Value != nil && tv.Value.String() == "0" {
		return true
	}
	call, ok := ast.Unparen(high).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || refersTo(f, call.Args[0]) != v {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	b, isBuiltin := f.Info.Uses[id].(*types.Builtin)
	return ok && isBuiltin && b.Name() == "len"
}
