package mutate

import "go/ast"

// FuncName names a function declaration as Mutant.Function does: Lower,
// T.M or (*T).M.
func FuncName(fd *ast.FuncDecl) string { return funcName(fd) }
