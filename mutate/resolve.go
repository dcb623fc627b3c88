package mutate

import (
	"go/ast"
	"go/types"
	"strings"
)

// This file answers the config's questions about names in the loaded
// program (config.Resolver): do a Q2 entry's function, variable and
// callers exist?

// HasFunc reports whether name, written as pkg/path.Func,
// (*pkg/path.T).M or (pkg/path.T).M, names a function or method of a
// loaded package (in scope or a dependency).
func (p *Program) HasFunc(name string) bool {
	path, recv, ptr, fn, ok := ParseFuncName(name)
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

// ParseFuncName splits a function name of the forms pkg/path.Func,
// (*pkg/path.T).M and (pkg/path.T).M.
func ParseFuncName(name string) (path, recv string, ptr bool, fn string, ok bool) {
	if rest, found := strings.CutPrefix(name, "("); found {
		close := strings.Index(rest, ").")
		if close < 0 {
			return "", "", false, "", false
		}
		t, m := rest[:close], rest[close+2:]
		t, ptr = strings.CutPrefix(t, "*")
		dot := strings.LastIndex(t, ".")
		if dot <= 0 || dot < strings.LastIndex(t, "/") || dot == len(t)-1 || m == "" {
			return "", "", false, "", false
		}
		return t[:dot], t[dot+1:], ptr, m, true
	}
	dot := strings.LastIndex(name, ".")
	if dot <= 0 || dot < strings.LastIndex(name, "/") || dot == len(name)-1 {
		return "", "", false, "", false
	}
	return name[:dot], "", false, name[dot+1:], true
}

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
