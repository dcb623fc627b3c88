package operators

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/perfmut/perfmut/mutate"
)

// LoopUnbreaker removes early exits from loops.
var LoopUnbreaker = &mutate.Operator{
	Name:     "loop-unbreaker",
	Quadrant: mutate.Q4,
	Cost:     mutate.CostWork,
	Doc: mutate.Doc{
		Title: "remove a loop's early exit",
		Body: `In a loop with a terminating condition, an if statement whose body ends
with a break that exits that loop (an unlabeled break outside any nested
switch, select or loop, or a break naming the loop's label) loses that break,
so the loop runs to its end. When the break is the body's only statement and
the if has no init statement, no else branch and a condition without calls or
channel receives, the whole if is removed. Loops without a terminating
condition (for {}, for true {}, range over a channel or a function iterator)
are left alone. A label whose only use was the removed break is removed too.`,
		Before: `for _, x := range xs {
	if x == want {
		found = true
		break
	}
}`,
		After: `for _, x := range xs {
	if x == want {
		found = true
	}
}`,
	},
	Run: runLoopUnbreaker,
}

func runLoopUnbreaker(pass *mutate.Pass) {
	f := newFile(pass)
	f.loops(func(loop ast.Stmt, body *ast.BlockStmt, stack []ast.Node) {
		if !terminates(f.Info, loop) {
			return
		}
		var labeled *ast.LabeledStmt
		if len(stack) > 0 {
			if l, ok := stack[len(stack)-1].(*ast.LabeledStmt); ok && l.Stmt == loop {
				labeled = l
			}
		}
		u := &unbreaker{f: f, labeled: labeled, fnBody: enclosingBody(stack)}
		u.scan(body, false, nil)
	})
}

// terminates reports whether a loop has a terminating condition.
func terminates(info *types.Info, loop ast.Stmt) bool {
	switch l := loop.(type) {
	case *ast.ForStmt:
		if l.Cond == nil {
			return false
		}
		if tv, ok := info.Types[l.Cond]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value) {
			return false
		}
		return true
	case *ast.RangeStmt:
		t := info.TypeOf(l.X)
		if t == nil {
			return false
		}
		switch t.Underlying().(type) {
		case *types.Chan, *types.Signature, *types.TypeParam, *types.Interface:
			return false
		}
		return true
	}
	return false
}

type unbreaker struct {
	f       *file
	labeled *ast.LabeledStmt // the loop's label, if any
	fnBody  *ast.BlockStmt
}

// scan looks for candidate if statements in s; nested says an unlabeled
// break there exits a nested switch, select or loop instead; list is the
// statement list s belongs to directly (nil if none).
func (u *unbreaker) scan(s ast.Stmt, nested bool, list []ast.Stmt) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		for _, x := range s.List {
			u.scan(x, nested, s.List)
		}
	case *ast.IfStmt:
		u.check(s, nested, list != nil)
		u.scan(s.Body, nested, nil)
		if s.Else != nil {
			u.scan(s.Else, nested, nil)
		}
	case *ast.LabeledStmt:
		u.scan(s.Stmt, nested, nil)
	case *ast.ForStmt:
		u.scan(s.Body, true, nil)
	case *ast.RangeStmt:
		u.scan(s.Body, true, nil)
	case *ast.SwitchStmt:
		u.scan(s.Body, true, nil)
	case *ast.TypeSwitchStmt:
		u.scan(s.Body, true, nil)
	case *ast.SelectStmt:
		u.scan(s.Body, true, nil)
	case *ast.CaseClause:
		for _, x := range s.Body {
			u.scan(x, nested, s.Body)
		}
	case *ast.CommClause:
		for _, x := range s.Body {
			u.scan(x, nested, s.Body)
		}
	}
}

func (u *unbreaker) check(s *ast.IfStmt, nested, inList bool) {
	f := u.f
	if len(s.Body.List) == 0 {
		return
	}
	br, ok := s.Body.List[len(s.Body.List)-1].(*ast.BranchStmt)
	if !ok || br.Tok != token.BREAK {
		return
	}
	if br.Label == nil {
		if nested {
			return
		}
	} else if u.labeled == nil || br.Label.Name != u.labeled.Label.Name {
		return
	}
	var edits []mutate.Edit
	if br.Label != nil && u.labelUses(br.Label.Name) == 1 {
		edits = append(edits, f.del(u.labeled.Pos(), u.labeled.Colon+1))
	}
	whole := len(s.Body.List) == 1 && s.Init == nil && s.Else == nil && inList &&
		f.pure(s.Cond) && f.removable(nil, s.Cond)
	if whole {
		f.Report(mutate.Site{
			Node:        s,
			Description: fmt.Sprintf("remove `if %s { %s }`", f.short(s.Cond), f.short(br)),
			Edits:       append(edits, f.delStmt(s)),
		})
		return
	}
	f.Report(mutate.Site{
		Node:        br,
		Description: fmt.Sprintf("remove `%s` from `if %s`", f.short(br), f.short(s.Cond)),
		Edits:       append(edits, f.delStmt(br)),
	})
}

// labelUses counts the branch statements naming label in the enclosing
// function (labels are local to a function body, not to literals in it).
func (u *unbreaker) labelUses(label string) int {
	if u.fnBody == nil {
		return 0
	}
	n := 0
	ast.Inspect(u.fnBody, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if x.Label != nil && x.Label.Name == label {
				n++
			}
		}
		return true
	})
	return n
}
