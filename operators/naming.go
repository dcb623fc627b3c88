package operators

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"regexp"
)

// scopeAt returns the innermost scope containing pos.
func (f *file) scopeAt(pos token.Pos) *types.Scope {
	if s := f.Pkg.Scope().Innermost(pos); s != nil {
		return s
	}
	return f.Pkg.Scope()
}

// lookup resolves name at pos as Go would in the mutated file.
func (f *file) lookup(name string, pos token.Pos) types.Object {
	_, obj := f.scopeAt(pos).LookupParent(name, pos)
	return obj
}

// helperUsable reports whether code at pos can call the helper identifiers
// names, and whether the helper file can declare or import pkgLevel (its
// other top-level identifiers and its import names) without colliding with
// the package's own declarations.
func (f *file) helperUsable(pos token.Pos, names []string, pkgLevel []string) bool {
	for _, n := range names {
		if f.lookup(n, pos) != nil {
			return false
		}
	}
	for _, n := range pkgLevel {
		if f.Pkg.Scope().Lookup(n) != nil {
			return false
		}
	}
	return true
}

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
