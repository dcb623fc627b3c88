package operators

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
)

// Oblivion undoes the memoization of a call's result in a local variable.
var Oblivion = &mutate.Operator{
	Name:     "oblivion",
	Quadrant: mutate.Q4,
	Cost:     mutate.CostWork,
	Options:  oblivionOptions,
	Doc: mutate.Doc{
		Title: "forget a memoized call result",
		Body: `For a local v := f(args) (or var v = f(args)) every read of v becomes the
guard (v == f(args)) ? f(args) : v, written as perfmut_oblivion(v, func() T {
return f(args) }): each read calls f again (twice when it still returns v),
and the value read is v's whenever f is deterministic. One mutant per
variable. In modules older than Go 1.18 (no generics) the guard is written
inline: func() T { if v == (f(args)) { return f(args) }; return v }().

The call must be safe to evaluate again. f is a declared function, method or
function value: not a builtin, not a conversion, not in oblivion.blacklist
(pkg/path.Func, (*pkg/path.T).M or a bare name), not from a package with
clocks, randomness, I/O or synchronisation (time, math/rand, os, io, sync,
...), and not named like a mutator or constructor (Next, Pop, Read, Add,
Set, New, ..., also in lower case such as newNode). Its receiver and
arguments are pure expressions: no calls other than conversions and
len/cap/min/max, no channel receives, no function literals, so evaluating
them again has no effect. If the arguments' variables change before a read,
the guard returns v.

The type T of v is comparable with no interface or type parameter inside (so
== cannot panic) and nameable at every read (no unexported type of another
package, no package the file does not import). Uses that write v or need it
addressable (assignment, ++, &v, a pointer method on v, slicing an array v)
keep v; if v changes, the guard still returns its current value. Reads where
f, its arguments or T would resolve to something else (shadowing) are left
alone.`,
		Before: `n := utf8.RuneCountInString(s)
for i := 0; i < n; i++ {
	out = append(out, s[i])
}`,
		After: `n := utf8.RuneCountInString(s)
for i := 0; i < perfmut_oblivion(n, func() int { return utf8.RuneCountInString(s) }); i++ {
	out = append(out, s[i])
}`,
	},
	Helper: `// perfmut_oblivion returns f() if it equals the memoized v, else v: the
// SlowCoach guard (v == f()) ? f() : v.
func perfmut_oblivion[T comparable](v T, f func() T) T {
	if v == f() {
		return f()
	}
	return v
}
`,
	Run: runOblivion,
}

func runOblivion(pass *mutate.Pass) {
	f := newFile(pass)
	if f.Pkg.Scope().Lookup("perfmut_oblivion") != nil {
		return
	}
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
						oblivion(f, n, id, call, stack)
					}
				}
			}
		case *ast.DeclStmt:
			g, _ := n.Decl.(*ast.GenDecl)
			if g == nil || g.Tok != token.VAR || len(g.Specs) != 1 {
				return true
			}
			vs := g.Specs[0].(*ast.ValueSpec)
			if len(vs.Names) == 1 && len(vs.Values) == 1 {
				if call, ok := ast.Unparen(vs.Values[0]).(*ast.CallExpr); ok {
					oblivion(f, n, vs.Names[0], call, stack)
				}
			}
		}
		return true
	})
}

// oblivionOptions is the oblivion: section of the configuration, which
// oblivion and global-oblivion share.
var oblivionOptions = &config.Section{Key: "oblivion", New: func() any { return &OblivionOptions{} }}

// OblivionOptions are the options of oblivion and global-oblivion.
type OblivionOptions struct {
	// Blacklist names functions whose results are never un-memoized, as
	// "pkg/path.Func" or "(*pkg/path.T).M" or a bare "Func".
	Blacklist []string `yaml:"blacklist"`
}

func oblivion(f *file, def ast.Stmt, id *ast.Ident, call *ast.CallExpr, stack []ast.Node) {
	v, _ := f.Info.Defs[id].(*types.Var)
	if v == nil {
		return
	}
	t := v.Type()
	if ct := f.Info.TypeOf(call); ct == nil || !types.Identical(ct, t) || !safeEqual(t) {
		return
	}
	if !f.reEvaluable(call, f.Options.(*OblivionOptions).Blacklist, false) {
		return
	}
	body := enclosingBody(stack)
	if body == nil {
		return
	}
	type read struct {
		id    *ast.Ident
		write bool
	}
	var reads []read
	ast.PreorderStack(body, stack, func(n ast.Node, st []ast.Node) bool {
		if x, ok := n.(*ast.Ident); ok && f.Info.Uses[x] == v {
			reads = append(reads, read{x, f.isWrite(x, st, false)})
		}
		return true
	})
	callText := f.text(call)
	generic := f.goAtLeast("go1.18")
	var edits []mutate.Edit
	for _, r := range reads {
		if r.write {
			continue // an assignment, &v, v++, a pointer method on v: keeps v
		}
		pos := r.id.Pos()
		if generic && f.lookup("perfmut_oblivion", pos) != nil || !f.sameResolution(call, pos) {
			continue
		}
		ts, ok := f.typeExpr(t, pos)
		if !ok {
			continue
		}
		guard := fmt.Sprintf("perfmut_oblivion(%s, func() %s { return %s })", r.id.Name, ts, callText)
		if !generic { // no generic helper before Go 1.18: the same guard, inline
			guard = fmt.Sprintf("func() %s { if %s == (%s) { return %s }; return %s }()", ts, r.id.Name, callText, callText, r.id.Name)
		}
		edits = append(edits, f.replace(r.id, guard))
	}
	if len(edits) == 0 {
		return
	}
	f.Report(mutate.Site{
		Node:        def,
		Description: fmt.Sprintf("re-evaluate %s at %s of %s", f.short(call), english.Plural(len(edits), "read"), id.Name),
		Edits:       edits,
	})
}
