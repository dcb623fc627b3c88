package operators

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// CallReplace replaces calls to a configured function with a value.
var CallReplace = &mutate.Operator{
	Name:     "call-replace",
	Quadrant: mutate.Q2,
	Cost:     mutate.CostWork,
	Doc: mutate.Doc{
		Title: "replace a call with a constant (fast-path disabler)",
		Body: `For every call-replace entry of the configuration, every call of the named
function or method (pkg/path.Func, (*pkg/path.T).M or pkg/path.T.M; matched
by type information, so renamed imports and method values on any expression
count) whose single result is used becomes the entry's Go expression, only
inside the entry's callers if it lists any (Lower, (*T).M, T.M, or init for
package-level code). The expression is type-checked in the call's scope; when
its type is not exactly the call's it is converted, and sites where it does
not type-check, is not assignable, or where dropping the call would leave a
variable or import unused are skipped. One mutant per call and entry.`,
		Before: `// call-replace: [{func: example.com/m/text.isASCII, value: "false", callers: [Lower]}]
if isASCII(s) {
	return lowerASCII(s)
}`,
		After: `// call-replace: [{func: example.com/m/text.isASCII, value: "false", callers: [Lower]}]
if false {
	return lowerASCII(s)
}`,
	},
	Options: &config.Section{Key: "call-replace", New: func() any { return &CallReplaceOptions{} }},
	Run:     runCallReplace,
}

// CallReplaceOptions are call-replace's options, the call-replace: section
// of the configuration.
type CallReplaceOptions []CallReplaceEntry

// A CallReplaceEntry replaces calls to Func with Value, optionally only
// inside the named caller functions.
type CallReplaceEntry struct {
	Func    string   `yaml:"func"`    // pkg/path.Func or (*pkg/path.T).M
	Value   string   `yaml:"value"`   // a Go expression
	Callers []string `yaml:"callers"` // function names, e.g. Lower or (*T).M; empty = everywhere
	Line    int      `yaml:"-"`       // line of the entry in the file, for errors
}

// Validate checks that every entry has a well-formed func and a value.
func (o *CallReplaceOptions) Validate() error {
	for i, e := range *o {
		at := []any{i}
		if e.Func == "" {
			return config.Invalid(at, "call-replace entry needs func: (e.g. example.com/m/pkg.isASCII or (*example.com/m/pkg.T).M)")
		}
		if _, _, _, _, ok := config.ParseFuncName(e.Func); !ok {
			return config.Invalid(at, "call-replace func %q must be pkg/path.Func, (*pkg/path.T).M or (pkg/path.T).M", e.Func)
		}
		if blank(e.Value) {
			return config.Invalid(at, "call-replace entry for %s needs value: (a Go expression, e.g. \"false\")", e.Func)
		}
	}
	return nil
}

// CheckNames checks that the functions and callers exist.
func (o *CallReplaceOptions) CheckNames(r config.Resolver) error {
	for _, e := range *o {
		if !r.HasFunc(e.Func) {
			path, _, _, _, _ := config.ParseFuncName(e.Func)
			if r.Complete() || r.PackageLoaded(path) {
				return config.InvalidAtLine(e.Line, "call-replace: function %s does not exist in the loaded packages", e.Func)
			}
		}
		if err := checkCallers(r, "call-replace", e.Line, e.Callers); err != nil {
			return err
		}
	}
	return nil
}

type callEntry struct {
	fn      string
	value   q2Value
	callers []string
}

func runCallReplace(pass *mutate.Pass) {
	var entries []callEntry
	for _, e := range *pass.Options.(*CallReplaceOptions) {
		if v, ok := parseValue(e.Value); ok {
			entries = append(entries, callEntry{strings.ReplaceAll(e.Func, " ", ""), v, e.Callers})
		}
	}
	if len(entries) == 0 {
		return
	}
	f := newFile(pass)
	ast.PreorderStack(f.File, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(stack) == 0 {
			return true
		}
		switch stack[len(stack)-1].(type) {
		case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
			return true // the result is not used
		}
		fn := f.callee(call)
		if fn == nil {
			return true
		}
		t := f.Info.TypeOf(call)
		if t == nil {
			return true
		}
		if _, tuple := t.(*types.Tuple); tuple {
			return true
		}
		names := funcSpellings(fn)
		for _, e := range entries {
			if !contains(names, e.fn) || !callerMatches(stack, e.callers) {
				continue
			}
			text, uses, ok := e.value.fit(f, call.Pos(), t)
			if !ok || !f.removable(uses, call) || !e.value.constSafe(f, []replacement{{call, stack, text}})[0] {
				continue
			}
			f.Report(mutate.Site{
				Node:        call,
				Params:      map[string]any{"value": e.value.text},
				Description: fmt.Sprintf("replace %s with %s", f.short(call), e.value.text),
				Edits:       []mutate.Edit{f.replace(call, text)},
			})
		}
		return true
	})
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
