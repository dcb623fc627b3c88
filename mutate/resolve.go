package mutate

import (
	"go/ast"
	"go/types"

	"github.com/perfmut/perfmut/config"
)

// This file answers the config's questions about names in the loaded
// program (config.Resolver): do a Q2 entry's function, variable and
// callers exist?

// HasFunc reports whether name, written as pkg/path.Func,
// (*pkg/path.T).M or (pkg/path.T).M, names a function or method of a
// loaded package (in scope or a dependency).
func (p *Program) HasFunc(name string) bool {
	path, recv, ptr, fn, ok := config.ParseFuncName(name)
	if !ok {
		return false
	}
	lp := p.all[path]
	if lp == nil || lp.Types == nil {
		return false
	}
	scope := lp.Types.Scope()
	if recv == "" {
		_, isFunc := scope.Lookup(fn).(*types.Func)
		return isFunc
	}
	tn, isType := scope.Lookup(recv).(*types.TypeName)
	if !isType {
		return false
	}
	var t types.Type = tn.Type()
	if ptr {
		t = types.NewPointer(t)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, false, lp.Types, fn)
	_, isFunc := obj.(*types.Func)
	return isFunc
}

// PackageLoaded reports whether the package with the import path was
// loaded, in scope or as a dependency.
func (p *Program) PackageLoaded(path string) bool { return p.all[path] != nil }

// Complete reports whether the load covered the whole module: the
// patterns were ./... (or none) from the module root.
func (p *Program) Complete() bool { return p.complete }

// HasFunction reports whether an in-scope package declares a function
// named as in Mutant.Function (Lower, T.M, (*T).M).
func (p *Program) HasFunction(name string) bool {
	for _, pkg := range p.Packages {
		for _, f := range pkg.syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && funcName(fd) == name {
					return true
				}
			}
		}
	}
	return false
}

// HasLocalVar reports whether a function of an in-scope package (one of
// callers, if any) declares a local variable named name.
func (p *Program) HasLocalVar(name string, callers []string) bool {
	for _, pkg := range p.Packages {
		for _, f := range pkg.syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if len(callers) > 0 && !contains(callers, funcName(fd)) {
					continue
				}
				found := false
				ast.Inspect(fd, func(n ast.Node) bool {
					if found {
						return false
					}
					id, ok := n.(*ast.Ident)
					if !ok || id.Name != name {
						return true
					}
					if v, ok := pkg.pkg.TypesInfo.Defs[id].(*types.Var); ok && !v.IsField() {
						found = true
					}
					return true
				})
				if found {
					return true
				}
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
