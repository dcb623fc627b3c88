package operators

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"regexp"
	"strings"
)

// typeExpr returns Go source naming t at pos in the file, or false when t
// cannot be named there: it involves an interface literal, an unexported
// type or field of another package, a package the file does not import, or
// a name (type, type parameter, package) shadowed at pos.
func (f *file) typeExpr(t types.Type, pos token.Pos) (string, bool) {
	ok := f.nameable(t, pos, make(map[types.Type]bool))
	if !ok {
		return "", false
	}
	s := types.TypeString(t, func(p *types.Package) string {
		if p == f.Pkg {
			return ""
		}
		name, found := f.importName(p, pos)
		if !found {
			ok = false
		}
		return name
	})
	if !f.goAtLeast("go1.18") && f.lookup("any", pos) == types.Universe.Lookup("any") {
		s = anyWord.ReplaceAllString(s, "interface{}") // types.TypeString prints the empty interface as any
	}
	return s, ok
}

// anyWord matches the identifier any.
var anyWord = regexp.MustCompile(`\bany\b`)

// importName returns the name under which the file imports p, checked to
// resolve to that import at pos ("" for a dot import).
func (f *file) importName(p *types.Package, pos token.Pos) (string, bool) {
	for _, imp := range f.File.Imports {
		var pn *types.PkgName
		if imp.Name != nil {
			pn, _ = f.Info.Defs[imp.Name].(*types.PkgName)
			if imp.Name.Name == "." {
				if pn != nil && pn.Imported() == p {
					return "", true
				}
				continue
			}
		} else {
			pn, _ = f.Info.Implicits[imp].(*types.PkgName)
		}
		if pn == nil || pn.Imported() != p {
			continue
		}
		if f.lookup(pn.Name(), pos) == pn {
			return pn.Name(), true
		}
	}
	return "", false
}

func (f *file) nameable(t types.Type, pos token.Pos, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer || t.Info()&types.IsUntyped != 0 {
			return false
		}
		return f.lookup(t.Name(), pos) == types.Universe.Lookup(t.Name())
	case *types.Named, *types.Alias:
		var obj *types.TypeName
		var args *types.TypeList
		if n, ok := t.(*types.Named); ok {
			obj, args = n.Obj(), n.TypeArgs()
		} else {
			a := t.(*types.Alias)
			obj, args = a.Obj(), a.TypeArgs()
		}
		switch {
		case obj.Pkg() == nil: // error, comparable
			if f.lookup(obj.Name(), pos) != obj {
				return false
			}
		case obj.Pkg() == f.Pkg:
			if f.lookup(obj.Name(), pos) != obj {
				return false
			}
		default:
			if !obj.Exported() || obj.Parent() != obj.Pkg().Scope() {
				return false
			}
			name, ok := f.importName(obj.Pkg(), pos)
			if !ok || (name == "" && f.lookup(obj.Name(), pos) != obj) {
				return false
			}
		}
		for i := 0; args != nil && i < args.Len(); i++ {
			if !f.nameable(args.At(i), pos, seen) {
				return false
			}
		}
		return true
	case *types.Pointer:
		return f.nameable(t.Elem(), pos, seen)
	case *types.Slice:
		return f.nameable(t.Elem(), pos, seen)
	case *types.Array:
		return f.nameable(t.Elem(), pos, seen)
	case *types.Chan:
		return f.nameable(t.Elem(), pos, seen)
	case *types.Map:
		return f.nameable(t.Key(), pos, seen) && f.nameable(t.Elem(), pos, seen)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			fd := t.Field(i)
			if !fd.Exported() && fd.Pkg() != f.Pkg {
				return false
			}
			if !f.nameable(fd.Type(), pos, seen) {
				return false
			}
		}
		return true
	case *types.TypeParam:
		return f.lookup(t.Obj().Name(), pos) == t.Obj()
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if !f.nameable(tup.At(i).Type(), pos, seen) {
					return false
				}
			}
		}
		return t.TypeParams() == nil
	}
	return false // interfaces, tuples
}

// safeEqual reports whether == on values of t compiles and cannot panic:
// t is comparable and has no interface or type parameter inside (pointers and
// channels compare by identity, so what they point to does not matter).
func safeEqual(t types.Type) bool {
	if !types.Comparable(t) {
		return false
	}
	var walk func(t types.Type, depth int) bool
	walk = func(t types.Type, depth int) bool {
		if depth > 32 {
			return false
		}
		switch u := types.Unalias(t).(type) {
		case *types.TypeParam, *types.Interface:
			return false
		case *types.Named:
			if u.TypeArgs() != nil {
				for i := 0; i < u.TypeArgs().Len(); i++ {
					if _, isTP := u.TypeArgs().At(i).(*types.TypeParam); isTP {
						return false
					}
				}
			}
			return walk(u.Underlying(), depth+1)
		case *types.Array:
			return walk(u.Elem(), depth+1)
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if !walk(u.Field(i).Type(), depth+1) {
					return false
				}
			}
		}
		return true
	}
	return walk(t, 0)
}

// goAtLeast reports whether both the package (whose version the helper
// file gets) and this file are compiled with at least Go language version
// v (unknown versions count as new).
func (f *file) goAtLeast(v string) bool {
	for _, have := range []string{f.Pkg.GoVersion(), f.Info.FileVersions[f.File]} {
		if have != "" && version.IsValid(have) && version.Compare(have, v) < 0 {
			return false
		}
	}
	return true
}

// sameResolution reports whether every identifier of e that names a
// package-, file- or function-scoped object resolves to that same object at
// pos (nothing shadows it there).
func (f *file) sameResolution(e ast.Node, pos token.Pos) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if sel, isSel := n.(*ast.SelectorExpr); isSel {
			if f.Info.Selections[sel] != nil || f.Info.Uses[sel.Sel] != nil && f.Info.Uses[sel.Sel].Pkg() != f.Pkg {
				// a field or method, or a qualified identifier: only X resolves in scope
				ast.Inspect(sel.X, func(n ast.Node) bool { return ok && f.resolves(n, pos, &ok) })
				return false
			}
		}
		if kv, isKV := n.(*ast.KeyValueExpr); isKV {
			if id, isID := kv.Key.(*ast.Ident); isID {
				if v, isVar := f.Info.Uses[id].(*types.Var); isVar && v.IsField() {
					ast.Inspect(kv.Value, func(n ast.Node) bool { return ok && f.resolves(n, pos, &ok) })
					return false
				}
			}
		}
		return f.resolves(n, pos, &ok)
	})
	return ok
}

func (f *file) resolves(n ast.Node, pos token.Pos, ok *bool) bool {
	id, isID := n.(*ast.Ident)
	if !isID {
		return true
	}
	obj := f.Info.Uses[id]
	if obj == nil || obj.Parent() == nil { // fields, methods
		return true
	}
	if f.lookup(id.Name, pos) != obj {
		*ok = false
	}
	return *ok
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
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
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
