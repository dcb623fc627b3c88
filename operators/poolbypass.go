package operators

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/perfmut/perfmut/mutate"
)

// PoolBypass makes a sync.Pool's Get call New.
var PoolBypass = &mutate.Operator{
	Name:     "pool-bypass",
	Quadrant: mutate.Q4,
	Cost:     mutate.CostAlloc,
	Doc: mutate.Doc{
		Title: "allocate where a sync.Pool would reuse",
		Body: `Replaces p.Get() of a sync.Pool whose New the file sets (in the pool's
composite literal, or by assigning p.New) with p.New(): every use allocates a
fresh value and what was Put is never reused, as if the pool were always
empty, which Get allows. For a pool declared in the file without New, Get
becomes interface{}(nil), what Get of an empty pool returns, so the caller's
own fallback allocates. Pools declared in another file whose New the file
does not set are left alone.`,
		Before: `b := bufPool.Get().(*[]byte)
defer bufPool.Put(b)`,
		After: `b := bufPool.New().(*[]byte)
defer bufPool.Put(b)`,
	},
	Run: runPoolBypass,
}

func runPoolBypass(pass *mutate.Pass) {
	f := newFile(pass)
	withNew := poolsWithNew(f.File, f.Info)
	ast.Inspect(f.File, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) > 0 {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Get" || !isSyncPool(f.Info.TypeOf(sel.X)) {
			return true
		}
		if fn := f.callee(call); fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
			return true
		}
		obj := poolObj(f.Info, sel.X)
		switch {
		case obj == nil:
		case withNew[obj]:
			f.Report(mutate.Site{
				Node:        call,
				Description: "call New instead of Get of the pool " + f.short(sel.X),
				Edits:       []mutate.Edit{f.replace(sel.Sel, "New")},
			})
		case f.declaredHere(obj) && f.pure(sel.X) && f.removable(nil, call):
			f.Report(mutate.Site{
				Node:        call,
				Description: "treat the pool " + f.short(sel.X) + " as empty: Get returns nil",
				Edits:       []mutate.Edit{f.replace(call, "interface{}(nil)")},
			})
		}
		return true
	})
}

// isSyncPool reports whether t is sync.Pool or a pointer to it.
func isSyncPool(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Pool"
}

// poolObj returns the variable or struct field that e (a pool operand,
// possibly under &, * or parentheses) names, or nil.
func poolObj(info *types.Info, e ast.Expr) types.Object {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		case *ast.Ident:
			if o := info.Uses[x]; o != nil {
				return o
			}
			return info.Defs[x]
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				return s.Obj()
			}
			return info.Uses[x.Sel] // a qualified identifier
		default:
			return nil
		}
	}
}

// poolsWithNew returns the variables and fields the file gives a pool with
// New: a sync.Pool composite literal with a New key that initializes or is
// assigned to them (also as a field of a struct literal), or an assignment
// to their New field.
func poolsWithNew(syntax *ast.File, info *types.Info) map[types.Object]bool {
	out := map[types.Object]bool{}
	mark := func(target ast.Expr, value ast.Expr) {
		if value != nil && !poolLitWithNew(info, value) {
			return
		}
		if obj := poolObj(info, target); obj != nil {
			out[obj] = true
		}
	}
	ast.Inspect(syntax, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if len(n.Values) == len(n.Names) {
				for i, name := range n.Names {
					mark(name, n.Values[i])
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				break
			}
			for i, l := range n.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" && isSyncPool(info.TypeOf(sel.X)) {
					if !isNil(info, n.Rhs[i]) {
						mark(sel.X, nil)
					}
					continue
				}
				mark(l, n.Rhs[i])
			}
		case *ast.KeyValueExpr:
			if key, ok := n.Key.(*ast.Ident); ok {
				if v, isVar := info.Uses[key].(*types.Var); isVar && v.IsField() && poolLitWithNew(info, n.Value) {
					out[v] = true
				}
			}
		}
		return true
	})
	return out
}

// poolLitWithNew reports whether e is a sync.Pool composite literal (or its
// address) with a New key.
func poolLitWithNew(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok || !isSyncPool(info.TypeOf(lit)) {
		return false
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "New" {
				return !isNil(info, kv.Value)
			}
		}
	}
	return false
}

// isNil reports whether e is the predeclared nil.
func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, ok = info.Uses[id].(*types.Nil)
	return ok
}
