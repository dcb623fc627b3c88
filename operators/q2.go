package operators

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"strings"
)

// q2Value is a configured replacement expression, parsed once per Run.
type q2Value struct {
	text string
	expr ast.Expr
}

func parseValue(s string) (q2Value, bool) {
	e, err := parser.ParseExpr(s)
	if err != nil {
		return q2Value{}, false
	}
	return q2Value{text: strings.TrimSpace(s), expr: e}, true
}

// fit type-checks v as if written at pos in f and returns the Go text
// that replaces an expression of type want there: the value itself when its
// type is want, else a conversion to want (so := and type inference keep
// their types). It also returns the local variables and imports the text
// uses. ok is false when the value does not type-check there, is not
// assignable to want, or want cannot be named at pos.
func (v q2Value) fit(f *file, pos token.Pos, want types.Type) (text string, uses map[types.Object]int, ok bool) {
	info := &types.Info{Types: make(map[ast.Expr]types.TypeAndValue), Uses: make(map[*ast.Ident]types.Object)}
	if err := types.CheckExpr(f.Fset, f.Pkg, pos, v.expr, info); err != nil {
		return "", nil, false
	}
	tv, found := info.Types[v.expr]
	if !found || !tv.IsValue() || tv.Type == nil {
		return "", nil, false
	}
	if _, tuple := tv.Type.(*types.Tuple); tuple {
		return "", nil, false
	}
	if !assignable(tv, want) {
		return "", nil, false
	}
	uses = make(map[types.Object]int)
	for _, o := range info.Uses {
		if _, isPkg := o.(*types.PkgName); isPkg || f.isLocalVar(o) {
			uses[o]++
		}
	}
	t := tv.Type
	if b, isB := t.(*types.Basic); isB && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	text = operand(v.expr, v.text)
	if !types.Identical(t, want) {
		ts, named := f.typeExpr(want, pos)
		if !named {
			return "", nil, false
		}
		if strings.Trim(ts, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != "" {
			ts = "(" + ts + ")"
		}
		text = ts + "(" + v.text + ")"
	}
	return text, uses, true
}

// assignable reports whether a value described by tv can be assigned to a
// variable of type want.
func assignable(tv types.TypeAndValue, want types.Type) bool {
	b, isB := tv.Type.(*types.Basic)
	if !isB || b.Info()&types.IsUntyped == 0 {
		return types.AssignableTo(tv.Type, want)
	}
	if b.Kind() == types.UntypedNil {
		switch want.Underlying().(type) {
		case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
			return true
		}
		u, _ := want.Underlying().(*types.Basic)
		return u != nil && u.Kind() == types.UnsafePointer
	}
	switch u := want.Underlying().(type) {
	case *types.Interface:
		return types.AssignableTo(types.Default(b), want)
	case *types.Basic:
		if tv.Value == nil { // an untyped bool from a comparison
			return b.Info()&types.IsBoolean != 0 && u.Info()&types.IsBoolean != 0
		}
		return representable(tv.Value, u)
	}
	return false
}

// representable reports whether the constant v can be a value of basic
// type t (the int and uint types are taken as 64-bit).
func representable(v constant.Value, t *types.Basic) bool {
	info := t.Info()
	switch {
	case info&types.IsBoolean != 0:
		return v.Kind() == constant.Bool
	case info&types.IsString != 0:
		return v.Kind() == constant.String
	case info&types.IsInteger != 0:
		i := constant.ToInt(v)
		if i.Kind() != constant.Int {
			return false
		}
		var lo, hi int64
		var uhi uint64
		unsigned := info&types.IsUnsigned != 0
		switch t.Kind() {
		case types.Int8:
			lo, hi = math.MinInt8, math.MaxInt8
		case types.Int16:
			lo, hi = math.MinInt16, math.MaxInt16
		case types.Int32:
			lo, hi = math.MinInt32, math.MaxInt32
		case types.Int, types.Int64:
			lo, hi = math.MinInt64, math.MaxInt64
		case types.Uint8:
			uhi = math.MaxUint8
		case types.Uint16:
			uhi = math.MaxUint16
		case types.Uint32:
			uhi = math.MaxUint32
		default:
			uhi = math.MaxUint64
		}
		if unsigned {
			if constant.Sign(i) < 0 {
				return false
			}
			u, exact := constant.Uint64Val(i)
			return exact && u <= uhi
		}
		n, exact := constant.Int64Val(i)
		return exact && lo <= n && n <= hi
	case info&types.IsFloat != 0:
		k := constant.ToFloat(v).Kind()
		return k == constant.Float || k == constant.Int
	case info&types.IsComplex != 0:
		return constant.ToComplex(v).Kind() == constant.Complex
	}
	return false
}

// A replacement is one expression a Q2 operator replaces, with its
// ancestors.
type replacement struct {
	node  ast.Expr
	stack []ast.Node
	text  string
}

// constSafe reports, for each replacement by v of an expression of f,
// whether, when v is a constant, the expression around it still
// type-checks once the constant folds into it:
// s[n-1], x/n, uint(n)-1 or 1<<n can become invalid constant expressions
// (negative index, division by zero, overflow). It type-checks the
// outermost enclosing expression with every replacement inside it applied;
// a replacement in a switch case (a possible duplicate case) is refused.
func (v q2Value) constSafe(f *file, reps []replacement) []bool {
	ok := make([]bool, len(reps))
	if !v.mayBeConst(f) {
		for i := range ok {
			ok[i] = true
		}
		return ok
	}
	tops := make([]ast.Expr, len(reps))
	for i, r := range reps {
		tops[i] = topExpr(r.node, r.stack)
	}
	// Each replacement alone, then those that pass together per expression.
	for i := range reps {
		if tops[i] != nil {
			ok[i] = checkWith(f, tops[i], reps, []int{i})
		}
	}
	for i := range reps {
		if tops[i] == nil || (i > 0 && tops[i] == tops[i-1]) {
			continue
		}
		var group []int
		for j := i; j < len(reps) && tops[j] == tops[i]; j++ {
			if ok[j] {
				group = append(group, j)
			}
		}
		if len(group) > 1 && !checkWith(f, tops[i], reps, group) {
			for _, j := range group {
				ok[j] = false
			}
		}
	}
	return ok
}

// checkWith type-checks the expression top with the replacements idx
// applied.
func checkWith(f *file, top ast.Expr, reps []replacement, idx []int) bool {
	var edits []mutateEdit
	base := f.off(top.Pos())
	for _, j := range idx {
		edits = append(edits, mutateEdit{f.off(reps[j].node.Pos()) - base, f.off(reps[j].node.End()) - base, reps[j].text})
	}
	e, err := parser.ParseExpr(applyLocal(f.text(top), edits))
	if err != nil {
		return false
	}
	info := &types.Info{Types: make(map[ast.Expr]types.TypeAndValue)}
	return types.CheckExpr(f.Fset, f.Pkg, top.Pos(), e, info) == nil
}

// mayBeConst reports whether v may be a constant expression in f: it is
// one in the package scope, or it names something local (then the caller
// checks cautiously).
func (v q2Value) mayBeConst(f *file) bool {
	info := &types.Info{Types: make(map[ast.Expr]types.TypeAndValue)}
	if err := types.CheckExpr(f.Fset, f.Pkg, token.NoPos, v.expr, info); err != nil {
		return true
	}
	return info.Types[v.expr].Value != nil
}

// topExpr returns the outermost expression enclosing n (n itself at
// statement level), or nil when that expression is a switch case.
func topExpr(n ast.Expr, stack []ast.Node) ast.Expr {
	top := n
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.FuncLit:
			return top
		case *ast.CaseClause:
			for _, c := range p.List {
				if c == top {
					return nil
				}
			}
			return top
		case ast.Expr:
			top = p
		default:
			return top
		}
	}
	return top
}

type mutateEdit struct {
	start, end int
	text       string
}

// applyLocal applies sorted, non-overlapping edits to s.
func applyLocal(s string, edits []mutateEdit) string {
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(s[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(s[last:])
	return b.String()
}
