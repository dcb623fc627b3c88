package operators

import (
	"go/ast"
	"go/token"
	"go/types"
)

// pureBuiltins are the builtins without side effects that may appear in
// expressions the operators evaluate again or remove.
var pureBuiltins = map[string]bool{
	"len": true, "cap": true, "min": true, "max": true,
	"real": true, "imag": true, "complex": true,
}

// pure reports whether evaluating e again, or not at all, has no effect
// other than a possible run-time panic: no calls except conversions and pure
// builtins, no channel receives, no function literals.
func (f *file) pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.CallExpr:
			if tv, found := f.Info.Types[n.Fun]; found && tv.IsType() {
				return true
			}
			if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID {
				if b, isB := f.Info.Uses[id].(*types.Builtin); isB && pureBuiltins[b.Name()] {
					return true
				}
			}
			ok = false
		}
		return ok
	})
	return ok
}

// isLocalVar reports whether obj is a variable declared inside a function.
func (f *file) isLocalVar(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && !v.IsField() && v.Parent() != nil && v.Parent() != f.Pkg.Scope() && v.Parent() != types.Universe
}

// readCounts counts, for every local variable and import name of the file,
// the identifiers that count as a use for the compiler's "declared and not
// used" and "imported and not used" checks.
func (f *file) readCounts() map[types.Object]int {
	if f.reads != nil {
		return f.reads
	}
	f.reads = make(map[types.Object]int)
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := f.Info.Uses[id]
		if obj == nil {
			return true
		}
		if _, isPkg := obj.(*types.PkgName); !isPkg {
			if !f.isLocalVar(obj) || isPlainTarget(id, stack) {
				return true
			}
		}
		f.reads[obj]++
		return true
	})
	return f.reads
}

// isPlainTarget reports whether id is itself the target of = or := (which
// does not count as a use of the variable).
func isPlainTarget(id *ast.Ident, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.AssignStmt:
		if p.Tok == token.ASSIGN || p.Tok == token.DEFINE {
			for _, l := range p.Lhs {
				if l == id {
					return true
				}
			}
		}
	case *ast.RangeStmt:
		return p.Key == id || p.Value == id
	}
	return false
}

// usesIn counts the uses (as readCounts does) of local variables and import
// names inside n.
func (f *file) usesIn(n ast.Node) map[types.Object]int {
	m := make(map[types.Object]int)
	ast.PreorderStack(n, nil, func(n ast.Node, stack []ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			obj := f.Info.Uses[id]
			if _, isPkg := obj.(*types.PkgName); isPkg || (obj != nil && f.isLocalVar(obj) && !isPlainTarget(id, stack)) {
				m[obj]++
			}
		}
		return true
	})
	return m
}

// removable reports whether deleting the nodes ns leaves every local
// variable and import they mention still used elsewhere in the file
// (parameters never count as unused). added counts uses a replacement
// brings in.
func (f *file) removable(added map[types.Object]int, ns ...ast.Node) bool {
	gone := make(map[types.Object]int)
	for _, n := range ns {
		for o, c := range f.usesIn(n) {
			gone[o] += c
		}
	}
	all := f.readCounts()
	for o, c := range gone {
		if all[o]-c+added[o] > 0 || f.isParam(o) {
			continue
		}
		return false
	}
	return true
}

// isParam reports whether obj is a parameter or result of a function in the
// file (those never trigger "declared and not used").
func (f *file) isParam(obj types.Object) bool {
	if f.params == nil {
		f.params = make(map[types.Object]bool)
		ast.Inspect(f.File, func(n ast.Node) bool {
			var lists []*ast.FieldList
			switch x := n.(type) {
			case *ast.FuncDecl:
				lists = append(lists, x.Recv)
			case *ast.FuncType:
				lists = append(lists, x.Params, x.Results)
			}
			for _, fl := range lists {
				if fl == nil {
					continue
				}
				for _, fd := range fl.List {
					for _, name := range fd.Names {
						if o := f.Info.Defs[name]; o != nil {
							f.params[o] = true
						}
					}
				}
			}
			return true
		})
	}
	return f.params[obj]
}

// isWrite reports whether the use id (with its ancestors in stack) may
// change the variable or needs it addressable: assignment, ++/--, &, a
// method with a pointer receiver on a non-pointer, slicing an array, or an
// element or field of it being written. With deep set, writes through
// pointers, slices and maps reached from the variable count too.
func (f *file) isWrite(id *ast.Ident, stack []ast.Node, deep bool) bool {
	var e ast.Node = id
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			e = p
			continue
		case *ast.SelectorExpr:
			if p.X != e {
				return false
			}
			sel := f.Info.Selections[p]
			if sel == nil {
				return false
			}
			if sel.Kind() != types.FieldVal {
				return f.pointerMethodOnValue(p, sel)
			}
			if sel.Indirect() && !deep {
				return false
			}
			e = p
			continue
		case *ast.IndexExpr:
			if p.X != e {
				return false
			}
			t := f.Info.TypeOf(p.X)
			if t == nil {
				return false
			}
			if _, isArr := t.Underlying().(*types.Array); isArr || deep {
				e = p
				continue
			}
			return false
		case *ast.StarExpr:
			if deep {
				e = p
				continue
			}
			return false
		case *ast.SliceExpr:
			if p.X != e {
				return false
			}
			if deep {
				return true
			}
			t := f.Info.TypeOf(p.X)
			if t == nil {
				return true
			}
			_, isArr := t.Underlying().(*types.Array)
			return isArr
		case *ast.UnaryExpr:
			return p.Op == token.AND
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == e {
					return true
				}
			}
			return false
		case *ast.IncDecStmt:
			return true
		case *ast.RangeStmt:
			return p.Key == e || p.Value == e
		default:
			return false
		}
	}
	return false
}

// pointerMethodOnValue reports whether the method selection p (sel) takes
// the address of its operand: a method with a pointer receiver selected on
// a value that is not a pointer (an operand of unknown type counts).
func (f *file) pointerMethodOnValue(p *ast.SelectorExpr, sel *types.Selection) bool {
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return false
	}
	xt := f.Info.TypeOf(p.X)
	if xt == nil {
		return true
	}
	_, recvPtr := sig.Recv().Type().(*types.Pointer)
	_, xPtr := xt.Underlying().(*types.Pointer)
	return recvPtr && !xPtr
}
