package operators

import (
	"go/ast"
	"slices"

	"github.com/perfmut/perfmut/mutate"
)

// q3Size is one configured size of a Q3 operator: the statement it inserts,
// the mutant's params and its description.
type q3Size struct {
	stmt   string
	params map[string]any
	desc   string
}

// helperNames lists the names an operator's helper brings into the package:
// the identifiers mutated code calls, and the helper's other top-level
// identifiers and import names, which must not collide with the package's
// declarations. A test checks them against the Helper source.
type helperNames struct {
	calls    []string
	pkgLevel []string
}

// insertAtLoops reports one site per loop of the file and size: stmt
// inserted right after the opening brace of the loop body (always valid Go,
// and it keeps every line number). The site's node is the loop header up to
// that brace, so editing the body (or an inner loop) does not change the
// mutant's ID. Loops where the helper's names would be shadowed or collide
// are skipped.
func insertAtLoops(pass *mutate.Pass, sizes []q3Size, names helperNames) {
	if len(sizes) == 0 {
		return
	}
	f := newFile(pass)
	ast.Inspect(f.File, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch l := n.(type) {
		case *ast.ForStmt:
			body = l.Body
		case *ast.RangeStmt:
			body = l.Body
		default:
			return true
		}
		at := body.Lbrace + 1
		if !f.helperUsable(at, names.calls, names.pkgLevel) {
			return true
		}
		for _, s := range sizes {
			f.Report(mutate.Site{
				Node:        span{n.Pos(), at}, // the loop header: edits in the body keep the ID
				Params:      s.params,
				Description: s.desc,
				Edits:       []mutate.Edit{{Start: f.off(at), End: f.off(at), New: " " + s.stmt + ";"}},
			})
		}
		return true
	})
}

// uniqueSorted returns the distinct values of xs in increasing order,
// keeping only those keep accepts.
func uniqueSorted[T int | int64](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
