package mutate

import (
	"go/ast"
	"go/token"
)

// Large tables of constants (lookup tables, test vectors) are common in
// real modules and expensive to type-check: go/types records a type for
// every element. No operator has a site inside such a table, and its
// elements cannot change any declaration's type, so the module's syntax is
// loaded with their elements left out (elideData).

// minDataLits is the number of basic literals from which a package-level
// composite literal counts as a data table.
const minDataLits = 64

// elideData removes the elements of the large, pure-data composite
// literals that initialize package-level variables of f: literals whose
// elements are only basic literals, nested composite literals, keys,
// operators and identifiers (constants, field names, package-level
// variables and functions of the same package). The variable's type does
// not depend on the elements (a [...]T array keeps them). Files with a dot
// import are left alone (an identifier could be the import's only use).
// It returns whether it changed f.
func elideData(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Name != nil && imp.Name.Name == "." {
			return false
		}
	}
	changed := false
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for _, v := range vs.Values {
				cl, ok := v.(*ast.CompositeLit)
				if !ok || cl.Type == nil || len(cl.Elts) == 0 {
					continue
				}
				if at, ok := cl.Type.(*ast.ArrayType); ok && at.Len != nil {
					if _, ok := at.Len.(*ast.Ellipsis); ok {
						continue
					}
				}
				if n, pure := dataLits(cl.Elts); pure && n >= minDataLits {
					cl.Elts = nil
					changed = true
				}
			}
		}
	}
	return changed
}

// dataLits counts the basic literals in exprs and reports whether they are
// pure data (see elideData).
func dataLits(exprs []ast.Expr) (int, bool) {
	n := 0
	pure := true
	for _, e := range exprs {
		ast.Inspect(e, func(x ast.Node) bool {
			if !pure {
				return false
			}
			switch x.(type) {
			case nil, *ast.Ident, *ast.CompositeLit, *ast.KeyValueExpr, *ast.UnaryExpr,
				*ast.BinaryExpr, *ast.ParenExpr, *ast.ArrayType, *ast.MapType, *ast.StarExpr:
			case *ast.BasicLit:
				n++
			default:
				pure = false
			}
			return pure
		})
		if !pure {
			return n, false
		}
	}
	return n, true
}
