package operators

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/perfmut/perfmut/mutate"
)

// file wraps a Pass with the per-file facts the operators share. It is built
// once per Run and never outlives it. This file holds its positions, source
// text and the edits built from them; its other methods answer what every
// operator asks of the file: what a name resolves to and whether a type can
// be written at a position (naming.go), which variables an expression reads
// or writes (uses.go), and what a call invokes (calls.go). What only one
// operator asks is a function in that operator's file, taking what it needs.
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

// declaredHere reports whether obj is declared in the file.
func (f *file) declaredHere(obj types.Object) bool {
	return obj.Pos() >= f.File.FileStart && obj.Pos() < f.File.FileEnd
}

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

// --- sites and replacement text ----------------------------------------------

// span is a stretch of source reported as a site's Node when no single
// syntax node fits: package mutate takes a Node's start as the mutant's position
// and its text for the stable ID.
type span struct{ from, to token.Pos }

func (s span) Pos() token.Pos { return s.from }

func (s span) End() token.Pos { return s.to }

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
