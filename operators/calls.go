package operators

import (
	"go/ast"
	"go/types"
	"strings"
)

// callee returns the function or method object a call invokes statically,
// or nil (builtins, conversions, function values, method expressions).
func (f *file) callee(call *ast.CallExpr) *types.Func {
	fun := calledName(call)
	var obj types.Object
	switch x := fun.(type) {
	case *ast.Ident:
		obj = f.Info.Uses[x]
	case *ast.SelectorExpr:
		if sel := f.Info.Selections[x]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			obj = sel.Obj()
		} else {
			obj = f.Info.Uses[x.Sel]
		}
	}
	fn, _ := obj.(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// calledName returns the expression naming what call calls, without
// parentheses and without the type arguments of a generic instantiation.
func calledName(call *ast.CallExpr) ast.Expr {
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		return x.X
	case *ast.IndexListExpr:
		return x.X
	}
	return fun
}

// funcSpellings returns the ways the configuration may name fn:
// "pkg/path.Func", "(*pkg/path.T).M", "(pkg/path.T).M", "pkg/path.T.M".
func funcSpellings(fn *types.Func) []string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		if fn.Pkg() == nil {
			return []string{fn.Name()}
		}
		return []string{fn.Pkg().Path() + "." + fn.Name()}
	}
	t := sig.Recv().Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		ptr, t = true, p.Elem()
	}
	var tn *types.TypeName
	switch x := types.Unalias(t).(type) {
	case *types.Named:
		tn = x.Obj()
	default:
		return []string{fn.FullName()}
	}
	if tn.Pkg() == nil {
		return []string{fn.FullName()}
	}
	q := tn.Pkg().Path() + "." + tn.Name()
	out := []string{q + "." + fn.Name(), "(*" + q + ")." + fn.Name()}
	if !ptr {
		out = append(out, "("+q+")."+fn.Name())
	}
	return out
}

// calleeNames returns the names the oblivion blacklist may use for the
// function a call invokes.
func (f *file) calleeNames(call *ast.CallExpr) []string {
	if fn := f.callee(call); fn != nil {
		return append(funcSpellings(fn), fn.Name())
	}
	switch x := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return []string{x.Name}
	case *ast.SelectorExpr:
		return []string{x.Sel.Name}
	}
	return nil
}

// impurePkgs are packages whose functions and methods read or change state
// outside their arguments (clocks, randomness, I/O, synchronisation); the
// oblivion operators never evaluate their calls again.
var impurePkgs = map[string]bool{
	"time": true, "math/rand": true, "math/rand/v2": true, "crypto/rand": true,
	"os": true, "io": true, "bufio": true, "net": true, "net/http": true,
	"sync": true, "sync/atomic": true, "syscall": true, "runtime": true,
	"context": true, "os/exec": true, "log": true, "fmt": true, "reflect": true,
	"unsafe": true, "iter": true,
}

// mutatorPrefixes start the names of functions and methods that usually
// change state (iterators, containers, I/O); the oblivion operators never
// evaluate their calls again.
var mutatorPrefixes = []string{
	"Next", "Pop", "Push", "Read", "Write", "Scan", "Add", "Inc", "Dec", "Set",
	"Put", "Delete", "Remove", "Insert", "Append", "Reset", "Close", "Open",
	"Store", "Swap", "Send", "Recv", "Lock", "Unlock", "Acquire", "Release",
	"Take", "Flush", "Seek", "Start", "Stop", "Run", "Do", "Update", "Alloc",
	"Rand", "Now", "Random", "Shuffle", "Emit", "Enqueue", "Dequeue", "Fetch",
	"Mutable", "Ensure", "Grow", "Fill", "Register", "Claim", "Consume",
}

// constructorPrefixes start the names of constructors: oblivion skips them
// (a fresh pointer never equals v, so its guard only wastes a call), while
// global-oblivion takes them (strings.NewReplacer, like regexp.MustCompile,
// is what a package-level variable memoizes).
var constructorPrefixes = []string{"New", "Make", "Create"}

// reEvaluable reports whether the call's function may be called again at
// will: it is a declared function, method or function value (not a builtin
// or conversion), not blacklisted in the configuration, not from an impure
// package, not named like a mutator (nor a constructor unless
// constructors), and its receiver and arguments are pure expressions.
func (f *file) reEvaluable(call *ast.CallExpr, blacklist []string, constructors bool) bool {
	if call.Ellipsis.IsValid() && !f.pure(call.Args[len(call.Args)-1]) {
		return false
	}
	if tv, ok := f.Info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	fun := calledName(call)
	var name string
	switch x := fun.(type) {
	case *ast.Ident:
		name = x.Name
	case *ast.SelectorExpr:
		if f.Info.Selections[x] != nil && !f.pure(x.X) {
			return false
		}
		name = x.Sel.Name
	default:
		return false
	}
	if hasWordPrefix(name, mutatorPrefixes) || !constructors && hasWordPrefix(name, constructorPrefixes) {
		return false
	}
	if fn := f.callee(call); fn != nil && fn.Pkg() != nil && impurePkgs[fn.Pkg().Path()] {
		return false
	}
	names := f.calleeNames(call)
	for _, b := range blacklist {
		b = strings.ReplaceAll(b, " ", "")
		for _, n := range names {
			if b == n {
				return false
			}
		}
	}
	for _, a := range call.Args {
		if !f.pure(a) {
			return false
		}
	}
	return true
}

// hasWordPrefix reports whether name starts with one of the words
// (capitalized or not) followed by the end or a non-lower-case letter: "Add"
// matches Add, AddRow and addRow, not Address.
func hasWordPrefix(name string, words []string) bool {
	for _, p := range words {
		for _, w := range []string{p, strings.ToLower(p[:1]) + p[1:]} {
			if strings.HasPrefix(name, w) && (len(name) == len(w) || !isLower(name[len(w)])) {
				return true
			}
		}
	}
	return false
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
