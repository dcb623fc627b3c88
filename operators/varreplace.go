package operators

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
)

// VarReplace replaces the reads of a configured local variable with a value.
var VarReplace = &mutate.Operator{
	Name:     "var-replace",
	Quadrant: mutate.Q2,
	Cost:     mutate.CostWork,
	Doc: mutate.Doc{
		Title: "replace a local variable's reads with a constant (fast-path disabler)",
		Body: `For every var-replace entry of the configuration, the reads of each local
variable (or parameter) of that name, only inside the entry's callers if it
lists any, become the entry's Go expression: the paper's Listing 2 turns
dfafast into false in main. Writes, &v, ++ and method calls needing an
addressable v keep the variable. The expression is type-checked at each read
and converted when its type is not exactly the variable's; reads where it
does not fit are kept. When no read of a local variable remains, "_ = v" is
added after its declaration so it stays used (a variable declared in an if,
for, switch or range header is then skipped). One mutant per variable and
entry.`,
		Before: `// var-replace: [{var: dfafast, value: "false", callers: [main]}]
dfafast := isASCII(pattern)
if dfafast {
	searchFast(pattern)
}`,
		After: `// var-replace: [{var: dfafast, value: "false", callers: [main]}]
dfafast := isASCII(pattern); _ = dfafast
if false {
	searchFast(pattern)
}`,
	},
	Options: &config.Section{Key: "var-replace", New: func() any { return &VarReplaceOptions{} }},
	Run:     runVarReplace,
}

// VarReplaceOptions are var-replace's options, the var-replace: section of
// the configuration.
type VarReplaceOptions []VarReplaceEntry

// A VarReplaceEntry replaces reads of the local variable Var with Value,
// optionally only inside the named functions.
type VarReplaceEntry struct {
	Var     string   `yaml:"var"`
	Value   string   `yaml:"value"`
	Callers []string `yaml:"callers"`
	Line    int      `yaml:"-"` // line of the entry in the file, for errors
}

// Validate checks that every entry has a var and a value.
func (o *VarReplaceOptions) Validate() error {
	for i, e := range *o {
		if e.Var == "" {
			return config.Invalid([]any{i}, "var-replace entry needs var: (the name of a local variable)")
		}
		if blank(e.Value) {
			return config.Invalid([]any{i}, "var-replace entry for %s needs value: (a Go expression, e.g. \"false\")", e.Var)
		}
	}
	return nil
}

// CheckNames checks that the callers exist and declare the variable.
func (o *VarReplaceOptions) CheckNames(r config.Resolver) error {
	for _, e := range *o {
		if err := checkCallers(r, "var-replace", e.Line, e.Callers); err != nil {
			return err
		}
		if !r.HasLocalVar(e.Var, e.Callers) && r.Complete() {
			where := "any function of the loaded packages"
			if len(e.Callers) > 0 {
				where = strings.Join(e.Callers, ", ")
			}
			return config.InvalidAtLine(e.Line, "var-replace: no local variable %s in %s", e.Var, where)
		}
	}
	return nil
}

// A varEntry is a var-replace entry whose value parses.
type varEntry struct {
	name    string
	value   q2Value
	callers []string
}

// varReads are the reads of one local variable v that entry e replaces.
type varReads struct {
	v     *types.Var
	e     int // index in the entries
	reads []replacement
}

func runVarReplace(pass *mutate.Pass) {
	var entries []varEntry
	for _, e := range *pass.Options.(*VarReplaceOptions) {
		if v, ok := parseValue(e.Value); ok && e.Var != "" {
			entries = append(entries, varEntry{e.Var, v, e.Callers})
		}
	}
	if len(entries) == 0 {
		return
	}
	f := newFile(pass)
	groups, decls := replaceableReads(f, entries)
	for _, g := range groups {
		replaceReads(f, entries[g.e], g, decls[g.v])
	}
}

// replaceableReads returns the reads of local variables the entries may
// replace, grouped per variable and entry in source order, and the
// statements (in a statement list) declaring the file's local variables.
func replaceableReads(f *file, entries []varEntry) ([]*varReads, map[*types.Var]ast.Stmt) {
	var groups []*varReads
	index := make(map[[2]any]*varReads)
	decls := make(map[*types.Var]ast.Stmt)
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if v, ok := f.Info.Defs[id].(*types.Var); ok && f.isLocalVar(v) {
			if s := declStmt(stack); s != nil {
				decls[v] = s
			}
			return true
		}
		v, ok := f.Info.Uses[id].(*types.Var)
		if !ok || !f.isLocalVar(v) {
			return true
		}
		for i, e := range entries {
			if e.name != id.Name || !callerMatches(stack, e.callers) || f.isWrite(id, stack, false) || isPlainTarget(id, stack) {
				continue
			}
			k := [2]any{v, i}
			g := index[k]
			if g == nil {
				g = &varReads{v: v, e: i}
				index[k] = g
				groups = append(groups, g)
			}
			g.reads = append(g.reads, replacement{node: id, stack: slices.Clone(stack)})
		}
		return true
	})
	return groups, decls
}

// replaceReads reports the mutant replacing the reads g of e's variable
// where e's value fits, adding "_ = v" after the declaration decl when no
// read of the variable is left.
func replaceReads(f *file, e varEntry, g *varReads, decl ast.Stmt) {
	var edits []mutate.Edit
	var first ast.Node
	left := f.readCounts()[g.v]
	var fitted []replacement
	var added []int
	for _, r := range g.reads {
		text, uses, ok := e.value.fit(f, r.node.Pos(), g.v.Type())
		if ok {
			r.text = text
			fitted = append(fitted, r)
			added = append(added, uses[g.v])
		}
	}
	for i, ok := range e.value.constSafe(f, fitted) {
		if !ok {
			continue
		}
		r := fitted[i]
		if first == nil {
			first = r.node
		}
		left += added[i] - 1
		edits = append(edits, f.replace(r.node, r.text))
	}
	if len(edits) == 0 {
		return
	}
	replaced := len(edits)
	if left <= 0 && !f.isParam(g.v) {
		if decl == nil {
			return
		}
		at := f.off(decl.End())
		edits = append(edits, mutate.Edit{Start: at, End: at, New: "; _ = " + g.v.Name()})
	}
	f.Report(mutate.Site{
		Node:        first,
		Params:      map[string]any{"var": e.name, "value": e.value.text},
		Description: fmt.Sprintf("replace %s of %s with %s", english.Plural(replaced, "read"), e.name, e.value.text),
		Edits:       edits,
	})
}

// declStmt returns the statement declaring the identifier whose ancestors
// are stack, if it is a := or var statement directly in a statement list.
func declStmt(stack []ast.Node) ast.Stmt {
	n := len(stack)
	if n < 2 {
		return nil
	}
	var s ast.Stmt
	var parent ast.Node
	switch p := stack[n-1].(type) {
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE {
			return nil
		}
		s, parent = p, stack[n-2]
	case *ast.ValueSpec:
		if n < 4 {
			return nil
		}
		d, ok := stack[n-3].(*ast.DeclStmt)
		if !ok {
			return nil
		}
		s, parent = d, stack[n-4]
	default:
		return nil
	}
	if slices.Contains(stmtList(parent), s) {
		return s
	}
	return nil // e.g. the comm of a select case: case v, ok := <-c:
}

// stmtList returns the statement list of a block or case clause.
func stmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}
