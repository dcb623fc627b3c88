package mutate

import (
	"fmt"
	"go/ast"
	"go/types"
)

// Small operators for testing the engine independently of operators/.

// testCapDrop drops the third argument of make calls (a capacity hint).
var testCapDrop = &Operator{
	Name:     "test-cap-drop",
	Quadrant: Q4,
	Run: func(pass *Pass) {
		tf := pass.Fset.File(pass.File.FileStart)
		ast.Inspect(pass.File, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 3 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "make" {
				return true
			}
			if _, ok := pass.Info.Uses[call.Fun.(*ast.Ident)].(*types.Builtin); !ok {
				return true
			}
			pass.Report(Site{
				Node:        call,
				Description: "drop the capacity hint of make",
				Edits:       []Edit{{Start: tf.Offset(call.Args[1].End()), End: tf.Offset(call.Args[2].End())}},
			})
			return true
		})
	},
}

// testSpin inserts a helper call at the start of every for/range body, once
// per size.
var testSpin = &Operator{
	Name:     "test-spin",
	Quadrant: Q3,
	Helper: `var perfmut_testMu sync.Mutex

var perfmut_testSink int

func perfmut_testSpin(n int) {
	perfmut_testMu.Lock()
	for i := 0; i < n; i++ {
		perfmut_testSink += i
	}
	perfmut_testMu.Unlock()
}`,
	HelperImports: []string{"sync"},
	Run: func(pass *Pass) {
		tf := pass.Fset.File(pass.File.FileStart)
		ast.Inspect(pass.File, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch n := n.(type) {
			case *ast.ForStmt:
				body = n.Body
			case *ast.RangeStmt:
				body = n.Body
			default:
				return true
			}
			for _, size := range []int{100, 10} {
				at := tf.Offset(body.Lbrace) + 1
				pass.Report(Site{
					Node:        n,
					Params:      map[string]any{"iterations": size},
					Description: fmt.Sprintf("spin %d iterations per loop iteration", size),
					Edits:       []Edit{{Start: at, End: at, New: fmt.Sprintf(" perfmut_testSpin(%d);", size)}},
				})
			}
			return true
		})
	},
}

// testMaybe inserts a statement at the start of every for/range body: a
// call of its (generic) helper in for loops, an inline statement in range
// loops, like oblivion's inline form in modules older than Go 1.18.
var testMaybe = &Operator{
	Name:     "test-maybe",
	Quadrant: Q3,
	Helper:   `func perfmut_testMaybe[T any](v T) T { return v }`,
	Run: func(pass *Pass) {
		tf := pass.Fset.File(pass.File.FileStart)
		ast.Inspect(pass.File, func(n ast.Node) bool {
			var body *ast.BlockStmt
			stmt := " _ = perfmut_testMaybe(1);"
			switch n := n.(type) {
			case *ast.ForStmt:
				body = n.Body
			case *ast.RangeStmt:
				body = n.Body
				stmt = " _ = func() int { return 1 }();"
			default:
				return true
			}
			at := tf.Offset(body.Lbrace) + 1
			pass.Report(Site{
				Node:        n,
				Description: "insert a statement",
				Edits:       []Edit{{Start: at, End: at, New: stmt}},
			})
			return true
		})
	},
}

// testBreak replaces every return statement's first result with an
// undefined name: mutants that do not compile.
var testBreak = &Operator{
	Name:     "test-break",
	Quadrant: Q4,
	Run: func(pass *Pass) {
		tf := pass.Fset.File(pass.File.FileStart)
		ast.Inspect(pass.File, func(n ast.Node) bool {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || len(ret.Results) == 0 {
				return true
			}
			r := ret.Results[0]
			pass.Report(Site{
				Node:        ret,
				Description: "return an undefined name",
				Edits:       []Edit{{Start: tf.Offset(r.Pos()), End: tf.Offset(r.End()), New: "undefinedName"}},
			})
			return true
		})
	},
}

var testOps = []*Operator{testCapDrop, testSpin}
