package operators

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strings"
)

// capFlow answers whether the capacity of a slice value may be read
// anywhere its value flows in the package: through variables, fields,
// parameters and results of the package's functions, appends and
// reslices. A read is cap(x), a reslice up to a bound other than 0 or
// len(x) (x[:27], x[:n+k]), a three-index slice, and any flow it cannot
// follow: a call of a function value or of a function of another package
// of the module, a store into an element, a pointer or a channel, a
// function literal's result. A call of a standard-library function is not
// a read (none relies on a capacity it did not make), and neither is a use
// outside the package (a returned slice's spare capacity is no part of an
// API). It is flow-insensitive: every use of a variable counts, before or
// after the value reaches it.
type capFlow struct {
	f       *file
	parent  map[ast.Node]ast.Node
	uses    map[types.Object][]*ast.Ident // the package's identifiers using each object
	calls   map[*types.Func][]*ast.Ident  // the package's identifiers using each function (its origin)
	decls   map[*types.Func]*ast.FuncDecl
	results map[types.Object]resultOf // named results
	done    map[any]bool              // in one query: objects and results followed (in progress: false)
}

type resultOf struct {
	fn *types.Func
	i  int
}

func newCapFlow(f *file) *capFlow {
	c := &capFlow{f: f, parent: make(map[ast.Node]ast.Node), uses: make(map[types.Object][]*ast.Ident),
		calls: make(map[*types.Func][]*ast.Ident), decls: make(map[*types.Func]*ast.FuncDecl), results: make(map[types.Object]resultOf)}
	files := f.Files
	if files == nil {
		files = []*ast.File{f.File}
	}
	for _, file := range files {
		ast.PreorderStack(file, nil, func(n ast.Node, stack []ast.Node) bool {
			if len(stack) > 0 {
				c.parent[n] = stack[len(stack)-1]
			}
			switch n := n.(type) {
			case *ast.Ident:
				switch obj := f.Info.Uses[n].(type) {
				case nil:
				case *types.Func:
					c.calls[obj.Origin()] = append(c.calls[obj.Origin()], n)
				default:
					c.uses[obj] = append(c.uses[obj], n)
				}
			case *ast.FuncDecl:
				c.funcDecl(n)
			}
			return true
		})
	}
	return c
}

func (c *capFlow) funcDecl(d *ast.FuncDecl) {
	fn, ok := c.f.Info.Defs[d.Name].(*types.Func)
	if !ok {
		return
	}
	c.decls[fn] = d
	res := fn.Type().(*types.Signature).Results()
	for i := range res.Len() {
		c.results[res.At(i)] = resultOf{fn, i}
	}
}

// up returns the parent of n, skipping parentheses.
func (c *capFlow) up(n ast.Node) ast.Node {
	p := c.parent[n]
	for {
		q, ok := p.(*ast.ParenExpr)
		if !ok {
			return p
		}
		p = c.parent[q]
	}
}

// capacityRead reports whether the capacity of the slice that e makes may
// be read where its value goes.
func (c *capFlow) capacityRead(e ast.Expr) bool {
	c.done = make(map[any]bool)
	return c.exprReads(e)
}

// exprReads reports whether the capacity of the slice value e may be read
// where e's value goes.
func (c *capFlow) exprReads(e ast.Expr) bool {
	switch p := c.up(e).(type) {
	case *ast.CallExpr:
		return c.argReads(p, e)
	case *ast.SliceExpr:
		if p.Max != nil || p.High != nil && !withinLength(c.f.Info, p.High, e) {
			return true
		}
		return c.exprReads(p)
	case *ast.IndexExpr, *ast.RangeStmt, *ast.BinaryExpr, *ast.ExprStmt:
		return false
	case *ast.AssignStmt:
		i := exprIndex(p.Rhs, e)
		if i < 0 {
			return false // e is written to
		}
		return len(p.Lhs) != len(p.Rhs) || c.storeReads(p.Lhs[i])
	case *ast.ValueSpec:
		i := exprIndex(p.Values, e)
		return len(p.Names) != len(p.Values) || c.storeReads(p.Names[i])
	case *ast.ReturnStmt:
		return c.returnReads(p, exprIndex(p.Results, e))
	case *ast.KeyValueExpr:
		lit, ok := c.parent[p].(*ast.CompositeLit)
		if !ok || ast.Unparen(p.Value) != e {
			return true
		}
		if t := c.f.Info.TypeOf(lit); t == nil || !isStruct(t) {
			return true // an element of a map or slice literal
		}
		return c.storeReads(p.Key)
	case *ast.SelectorExpr:
		return c.methodReads(p)
	}
	return true
}

// storeReads reports whether the capacity of a slice assigned to lhs (a
// variable, a field, a struct literal's key) may be read.
func (c *capFlow) storeReads(lhs ast.Expr) bool {
	if id, ok := lhs.(*ast.Ident); ok && id.Name == "_" {
		return false
	}
	if _, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
		return true // an element of a map or slice
	}
	obj := refersTo(c.f, lhs)
	return obj == nil || c.objReads(obj)
}

// objReads reports whether the capacity of a slice variable or field may
// be read at any of its uses in the package.
func (c *capFlow) objReads(obj types.Object) bool {
	if r, ok := c.done[obj]; ok {
		return r
	}
	c.done[obj] = false
	read := false
	for _, id := range c.uses[obj] {
		var e ast.Expr = id
		if sel, ok := c.parent[id].(*ast.SelectorExpr); ok && sel.Sel == id {
			e = sel
		}
		if c.written(e) {
			continue
		}
		if read = c.exprReads(e); read {
			break
		}
	}
	if r, ok := c.results[obj]; ok && !read {
		read = c.resultReads(r.fn, r.i)
	}
	c.done[obj] = read
	return read
}

// written reports whether e is the target of an assignment or a struct
// literal's key.
func (c *capFlow) written(e ast.Expr) bool {
	switch p := c.up(e).(type) {
	case *ast.AssignStmt:
		return slices.Contains(p.Lhs, e)
	case *ast.RangeStmt:
		return p.Key == e || p.Value == e
	case *ast.KeyValueExpr:
		return p.Key == e
	}
	return false
}

// returnReads reports whether the capacity of the i-th result of the
// function that ret returns from may be read by its callers.
func (c *capFlow) returnReads(ret *ast.ReturnStmt, i int) bool {
	if i < 0 {
		return true
	}
	for n := c.parent[ast.Node(ret)]; n != nil; n = c.parent[n] {
		switch n := n.(type) {
		case *ast.FuncLit:
			return true
		case *ast.FuncDecl:
			fn, ok := c.f.Info.Defs[n.Name].(*types.Func)
			return !ok || c.resultReads(fn, i)
		}
	}
	return true
}

// resultReads reports whether the capacity of fn's i-th result may be read
// where the package calls fn.
func (c *capFlow) resultReads(fn *types.Func, i int) bool {
	key := resultOf{fn, i}
	if r, ok := c.done[key]; ok {
		return r
	}
	c.done[key] = false
	read := false
	for _, id := range c.calls[fn] {
		if read = c.callReads(id, i); read {
			break
		}
	}
	c.done[key] = read
	return read
}

// callReads reports whether the capacity of the i-th result of the call
// that id names may be read.
func (c *capFlow) callReads(id *ast.Ident, i int) bool {
	var fun ast.Node = id
	if sel, ok := c.parent[id].(*ast.SelectorExpr); ok && sel.Sel == id {
		fun = sel
	}
	if ix := c.up(fun); ix != nil {
		switch x := ix.(type) {
		case *ast.IndexExpr:
			fun = x
		case *ast.IndexListExpr:
			fun = x
		}
	}
	call, ok := c.up(fun).(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != fun {
		return true // a function value
	}
	sig, ok := c.f.Info.TypeOf(call.Fun).(*types.Signature)
	if ok && sig.Results().Len() == 1 {
		return c.exprReads(call)
	}
	switch p := c.up(call).(type) {
	case *ast.AssignStmt:
		return len(p.Rhs) != 1 || c.storeReads(p.Lhs[i])
	case *ast.ValueSpec:
		return len(p.Values) != 1 || c.storeReads(p.Names[i])
	case *ast.ReturnStmt:
		return len(p.Results) != 1 || c.returnReads(p, i)
	case *ast.ExprStmt:
		return false
	}
	return true
}

// argReads reports whether the capacity of e, an operand of call, may be
// read.
func (c *capFlow) argReads(call *ast.CallExpr, e ast.Expr) bool {
	info := c.f.Info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		switch tv.Type.Underlying().(type) {
		case *types.Slice:
			return c.exprReads(call)
		case *types.Basic: // string(b)
			return false
		}
		return true
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "append":
				return call.Args[0] == e && c.exprReads(call)
			case "len", "copy", "clear", "print", "println":
				return false
			}
			return true // cap, and whatever else
		}
	}
	fn := c.f.callee(call)
	if fn == nil {
		return true
	}
	if c.standard(fn.Pkg()) {
		return false
	}
	i := exprIndex(call.Args, e)
	sig := fn.Type().(*types.Signature)
	if i < 0 {
		return true
	}
	if i >= sig.Params().Len()-1 && sig.Variadic() && !call.Ellipsis.IsValid() {
		return true // an element of the variadic parameter
	}
	return c.paramReads(fn, sig.Params().At(min(i, sig.Params().Len()-1)))
}

// methodReads reports whether the capacity of a slice whose method sel
// selects may be read: by the method, through its receiver.
func (c *capFlow) methodReads(sel *ast.SelectorExpr) bool {
	call, ok := c.up(sel).(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != sel {
		return true // a method value
	}
	fn := c.f.callee(call)
	if fn == nil {
		return true
	}
	if c.standard(fn.Pkg()) {
		return false
	}
	return c.paramReads(fn, fn.Type().(*types.Signature).Recv())
}

// paramReads reports whether fn, a function of the module, may read the
// capacity of the slice it receives as v: only a function of this package
// with a body is followed.
func (c *capFlow) paramReads(fn *types.Func, v *types.Var) bool {
	d := c.decls[fn]
	if d == nil || d.Body == nil || v == nil {
		return true // another package, an interface method, assembly
	}
	return c.objReads(v)
}

// standard reports whether p is a package of the standard library: its
// path's first element has no dot and is not that of the package mutated
// (a module path without a dot).
func (c *capFlow) standard(p *types.Package) bool {
	if p == nil {
		return false
	}
	first := func(path string) string { s, _, _ := strings.Cut(path, "/"); return s }
	f := first(p.Path())
	return !strings.Contains(f, ".") && f != first(c.f.Pkg.Path())
}

// withinLength reports whether a slice bound is 0 or len(x) of the sliced
// expression x itself: never past the length, whatever the capacity.
func withinLength(info *types.Info, high, x ast.Expr) bool {
	if tv, ok := info.Types[high]; ok && tv.Value != nil {
		v, exact := constant.Int64Val(constant.ToInt(tv.Value))
		return exact && v == 0
	}
	call, ok := ast.Unparen(high).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "len" && types.ExprString(call.Args[0]) == types.ExprString(x)
}

// exprIndex returns the index of the expression in list that is e, in
// parentheses or not, or -1.
func exprIndex(list []ast.Expr, e ast.Expr) int {
	return slices.IndexFunc(list, func(x ast.Expr) bool { return ast.Unparen(x) == e })
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

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}
