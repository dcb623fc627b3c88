package operators

import (
	"go/ast"
	"strings"
)

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
