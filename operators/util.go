package operators

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/perfmut/perfmut/mutate"
)

// file wraps a Pass with the per-file facts the operators share. It is built
// once per Run and never outlives it.
type file struct {
	*mutate.Pass
	tok *token.File

	reads  map[types.Object]int  // lazily: reading identifiers per local var / import name
	params map[types.Object]bool // lazily: parameters and results of the file's functions
}

func newFile(pass *mutate.Pass) *file {
	return &file{Pass: pass, tok: pass.Fset.File(pass.File.Pos())}
}

// off returns the byte offset of pos in the file.
func (f *file) off(pos token.Pos) int { return f.tok.Offset(pos) }

// text returns the source text of n.
func (f *file) text(n ast.Node) string { return string(f.Src[f.off(n.Pos()):f.off(n.End())]) }

// line returns the line of pos.
func (f *file) line(pos token.Pos) int { return f.tok.Line(pos) }

// del returns an edit deleting the source from start to end.
func (f *file) del(start, end token.Pos) mutate.Edit {
	return mutate.Edit{Start: f.off(start), End: f.off(end)}
}

// delStmt returns an edit deleting a statement, with its indentation when it
// starts its line (the line itself stays, so line numbers do not change).
func (f *file) delStmt(n ast.Node) mutate.Edit {
	e := f.del(n.Pos(), n.End())
	i := e.Start
	for i > 0 && (f.Src[i-1] == ' ' || f.Src[i-1] == '\t') {
		i--
	}
	if i == 0 || f.Src[i-1] == '\n' {
		e.Start = i
	}
	return e
}

// replace returns an edit replacing n with s.
func (f *file) replace(n ast.Node, s string) mutate.Edit {
	return mutate.Edit{Start: f.off(n.Pos()), End: f.off(n.End()), New: s}
}

// short returns n's source text on one line, shortened for descriptions.
func (f *file) short(n ast.Node) string {
	s := strings.Join(strings.Fields(f.text(n)), " ")
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// scopeAt returns the innermost scope containing pos.
func (f *file) scopeAt(pos token.Pos) *types.Scope {
	if s := f.Pkg.Scope().Innermost(pos); s != nil {
		return s
	}
	return f.Pkg.Scope()
}

// lookup resolves name at pos as Go would in the mutated file.
func (f *file) lookup(name string, pos token.Pos) types.Object {
	_, obj := f.scopeAt(pos).LookupParent(name, pos)
	return obj
}

// helperUsable reports whether code at pos can call the helper identifiers
// names, and whether the helper file can declare or import pkgLevel (its
// other top-level identifiers and its import names) without colliding with
// the package's own declarations.
func (f *file) helperUsable(pos token.Pos, names []string, pkgLevel []string) bool {
	for _, n := range names {
		if f.lookup(n, pos) != nil {
			return false
		}
	}
	for _, n := range pkgLevel {
		if f.Pkg.Scope().Lookup(n) != nil {
			return false
		}
	}
	return true
}

// span is a stretch of source reported as a site's Node when no single
// syntax node fits: the engine takes a Node's start as the mutant's position
// and its text for the stable ID.
type span struct{ from, to token.Pos }

func (s span) Pos() token.Pos { return s.from }
func (s span) End() token.Pos { return s.to }

// --- enclosing functions -----------------------------------------------------

// enclosingBody returns the body of the innermost function (declaration or
// literal) in stack, or nil at package level.
func enclosingBody(stack []ast.Node) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncDecl:
			return n.Body
		case *ast.FuncLit:
			return n.Body
		}
	}
	return nil
}

// funcNames returns the names by which the top-level function enclosing the
// stack can be selected in the configuration ("Lower", "(*T).M", "T.M",
// "(T).M"), or "init" at package level.
func funcNames(stack []ast.Node) []string {
	for _, n := range stack {
		if d, ok := n.(*ast.FuncDecl); ok {
			return declNames(d)
		}
	}
	return []string{"init"}
}

func declNames(d *ast.FuncDecl) []string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return []string{d.Name.Name}
	}
	t := d.Recv.List[0].Type
	ptr := false
	if s, ok := t.(*ast.StarExpr); ok {
		ptr, t = true, s.X
	}
	if p, ok := t.(*ast.ParenExpr); ok {
		t = p.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, _ := t.(*ast.Ident)
	if id == nil {
		return []string{d.Name.Name}
	}
	if ptr {
		return []string{"(*" + id.Name + ")." + d.Name.Name, id.Name + "." + d.Name.Name}
	}
	return []string{id.Name + "." + d.Name.Name, "(" + id.Name + ")." + d.Name.Name}
}

// callerMatches reports whether the function enclosing stack is one of
// callers (empty callers match everywhere).
func callerMatches(stack []ast.Node, callers []string) bool {
	if len(callers) == 0 {
		return true
	}
	for _, n := range funcNames(stack) {
		for _, c := range callers {
			if strings.ReplaceAll(c, " ", "") == n {
				return true
			}
		}
	}
	return false
}

// --- purity and use counts ---------------------------------------------------

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

// --- writes ------------------------------------------------------------------

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
			switch sel.Kind() {
			case types.FieldVal:
				if sel.Indirect() && !deep {
					return false
				}
				e = p
				continue
			default:
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

// --- loops -------------------------------------------------------------------

// loops calls fn for every for and range statement of the file, with its
// ancestors.
func (f *file) loops(fn func(loop ast.Stmt, body *ast.BlockStmt, stack []ast.Node)) {
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		switch l := n.(type) {
		case *ast.ForStmt:
			fn(l, l.Body, stack)
		case *ast.RangeStmt:
			fn(l, l.Body, stack)
		}
		return true
	})
}

// --- callees -----------------------------------------------------------------

// callee returns the function or method object a call invokes statically,
// or nil (builtins, conversions, function values, method expressions).
func (f *file) callee(call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	var obj types.Object
	switch x := fun.(type) {
	case *ast.Ident:
		obj = f.Info.Uses[x]
	case *ast.SelectorExpr:
		if sel := f.Info.Selections[x]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			obj = sel.Obj()
		} else {
			obj = f.Info.Uses[x.Sel]
		}
	}
	fn, _ := obj.(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// funcSpellings returns the ways the configuration may name fn:
// "pkg/path.Func", "(*pkg/path.T).M", "(pkg/path.T).M", "pkg/path.T.M".
func funcSpellings(fn *types.Func) []string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		if fn.Pkg() == nil {
			return []string{fn.Name()}
		}
		return []string{fn.Pkg().Path() + "." + fn.Name()}
	}
	t := sig.Recv().Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		ptr, t = true, p.Elem()
	}
	var tn *types.TypeName
	switch x := types.Unalias(t).(type) {
	case *types.Named:
		tn = x.Obj()
	default:
		return []string{fn.FullName()}
	}
	if tn.Pkg() == nil {
		return []string{fn.FullName()}
	}
	q := tn.Pkg().Path() + "." + tn.Name()
	out := []string{q + "." + fn.Name(), "(*" + q + ")." + fn.Name()}
	if !ptr {
		out = append(out, "("+q+")."+fn.Name())
	}
	return out
}

// --- replacement text --------------------------------------------------------

// operand returns s, parenthesized unless e is a primary expression that
// can stand anywhere an operand can (composite literals always get
// parentheses: they are ambiguous in if/for/switch headers).
func operand(e ast.Expr, s string) string {
	switch e.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.ParenExpr:
		return s
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.CallExpr:
		if !strings.Contains(s, "{") {
			return s
		}
	}
	return "(" + s + ")"
}
