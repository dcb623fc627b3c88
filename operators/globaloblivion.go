package operators

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
)

// GlobalOblivion undoes the memoization of a call's result in a
// package-level variable.
var GlobalOblivion = &mutate.Operator{
	Name:     "global-oblivion",
	Quadrant: mutate.Q4,
	Cost:     mutate.CostWork,
	Options:  oblivionOptions,
	Doc: mutate.Doc{
		Title: "recompute a package-level value at every use",
		Body: `For a package-level var x = f(args) (typically regexp.MustCompile or a
lookup table built once), every read of x in a function body of the same
file becomes a fresh f(args). One mutant per variable.

f must be safe to call again (the oblivion operator's rules: no builtin,
conversion, blacklisted, impure-package or mutator-named function, pure
arguments; constructors such as strings.NewReplacer are fine), and its
arguments may only name constants, types, functions and
imported packages, so the fresh value equals the original. x must never be
written: not assigned, incremented or address-taken, and nothing reached
from it (fields, elements, map entries) is assigned in this file; it must
be unexported (other packages could assign it) and not used in any other
file of the package (which this file's mutant could not check). x may not have an interface or channel type, and reads that
compare x with == or != keep it, since a fresh value has a different
identity.`,
		Before: `var wordRE = regexp.MustCompile(` + "`\\w+`" + `)

func Words(s string) []string {
	return wordRE.FindAllString(s, -1)
}`,
		After: `var wordRE = regexp.MustCompile(` + "`\\w+`" + `)

func Words(s string) []string {
	return regexp.MustCompile(` + "`\\w+`" + `).FindAllString(s, -1)
}`,
	},
	Run: runGlobalOblivion,
}

func runGlobalOblivion(pass *mutate.Pass) {
	f := newFile(pass)
	var usedElsewhere map[types.Object]bool
	for _, d := range f.File.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Values) != len(vs.Names) {
				continue
			}
			for i, name := range vs.Names {
				call, ok := ast.Unparen(vs.Values[i]).(*ast.CallExpr)
				if !ok {
					continue
				}
				v, _ := f.Info.Defs[name].(*types.Var)
				if v == nil || !globalCandidate(f, v, call) {
					continue
				}
				if usedElsewhere == nil {
					usedElsewhere = usedInOtherFiles(f)
				}
				if usedElsewhere[v] {
					continue
				}
				globalOblivion(f, vs, v, call)
			}
		}
	}
}

func globalCandidate(f *file, v *types.Var, call *ast.CallExpr) bool {
	if v.Exported() {
		return false // other packages may assign it
	}
	t := v.Type()
	if ct := f.Info.TypeOf(call); ct == nil || !types.Identical(ct, t) {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Interface, *types.Chan, *types.TypeParam:
		return false
	}
	if !f.reEvaluable(call, f.Options.(*OblivionOptions).Blacklist, true) {
		return false
	}
	ok := true
	ast.Inspect(call, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		switch o := f.Info.Uses[id].(type) {
		case *types.Var:
			ok = o.IsField()
		case nil, *types.Const, *types.TypeName, *types.Func, *types.PkgName, *types.Builtin, *types.Nil:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// usedInOtherFiles returns the package-level variables of this file that
// identifiers in other files of the package refer to.
func usedInOtherFiles(f *file) map[types.Object]bool {
	m := make(map[types.Object]bool)
	base, size := f.tok.Base(), f.tok.Size()
	for id, obj := range f.Info.Uses {
		p := int(id.Pos())
		if p >= base && p <= base+size {
			continue
		}
		if v, ok := obj.(*types.Var); ok && v.Parent() == f.Pkg.Scope() {
			m[v] = true
		}
	}
	return m
}

func globalOblivion(f *file, spec *ast.ValueSpec, v *types.Var, call *ast.CallExpr) {
	callText := operand(call, f.text(call))
	var edits []mutate.Edit
	ok := true
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !ok || !isID || f.Info.Uses[id] != v {
			return ok
		}
		if f.isWrite(id, stack, true) {
			ok = false
			return false
		}
		if enclosingBody(stack) == nil || comparedByIdentity(id, stack) || !f.sameResolution(call, id.Pos()) {
			return true
		}
		edits = append(edits, f.replace(id, callText))
		return true
	})
	if !ok || len(edits) == 0 {
		return
	}
	f.Report(mutate.Site{
		Node:        spec,
		Description: fmt.Sprintf("call %s afresh at %s of %s", f.short(call), english.Plural(len(edits), "read"), v.Name()),
		Edits:       edits,
	})
}

// comparedByIdentity reports whether id is an operand of == or != or a
// switch tag.
func comparedByIdentity(id *ast.Ident, stack []ast.Node) bool {
	var e ast.Node = id
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			e = p
			continue
		case *ast.BinaryExpr:
			return p.Op == token.EQL || p.Op == token.NEQ
		case *ast.SwitchStmt:
			return p.Tag == e
		case *ast.CaseClause:
			return true
		}
		return false
	}
	return false
}
