package generate

import (
	"go/token"
	"go/types"
	"strings"
)

// resolve finds the type a recorded type describes, among the types the
// package can see: the predeclared ones, its own, and those of the
// packages it imports (directly or not).
func (w *writer) resolve(d *TypeDesc) (types.Type, error) {
	if d.Name != "" {
		return w.named(d)
	}
	switch d.Kind {
	case "slice", "ptr", "array":
		if d.Elem == nil {
			break
		}
		elem, err := w.resolve(d.Elem)
		if err != nil {
			return nil, err
		}
		switch d.Kind {
		case "slice":
			return types.NewSlice(elem), nil
		case "ptr":
			return types.NewPointer(elem), nil
		}
		return types.NewArray(elem, int64(d.Len)), nil
	case "map":
		if d.Key == nil || d.Elem == nil {
			break
		}
		k, err := w.resolve(d.Key)
		if err != nil {
			return nil, err
		}
		e, err := w.resolve(d.Elem)
		if err != nil {
			return nil, err
		}
		return types.NewMap(k, e), nil
	}
	what := d.String
	if what == "" {
		what = d.Kind
	}
	return nil, cannot("an interface holding a value of the unnamed type %s", what)
}

// named resolves a named type.
func (w *writer) named(d *TypeDesc) (types.Type, error) {
	if strings.Contains(d.Name, "[") {
		return nil, cannot("an interface holding an instance of the generic type %s", d.Name)
	}
	if d.Path == "" {
		if obj, ok := types.Universe.Lookup(d.Name).(*types.TypeName); ok {
			return obj.Type(), nil
		}
		return nil, cannot("an interface holding the unknown type %s", d.Name)
	}
	if d.Path != w.pkg.Path() && !token.IsExported(d.Name) {
		return nil, cannot("an interface holding the unexported type %s.%s", lastElem(d.Path), d.Name)
	}
	p := findPackage(w.pkg, d.Path, map[*types.Package]bool{})
	if p == nil {
		return nil, cannot("an interface holding %s.%s, of a package the package does not import", d.Path, d.Name)
	}
	obj, ok := p.Scope().Lookup(d.Name).(*types.TypeName)
	if !ok {
		return nil, cannot("an interface holding %s.%s, a type local to a function", d.Path, d.Name)
	}
	if p != w.pkg && !obj.Exported() {
		return nil, cannot("an interface holding the unexported type %s.%s", p.Name(), d.Name)
	}
	return obj.Type(), nil
}

// findPackage finds the package with import path path among p and the
// packages it imports, directly or not.
func findPackage(p *types.Package, path string, seen map[*types.Package]bool) *types.Package {
	if p.Path() == path {
		return p
	}
	seen[p] = true
	for _, imp := range p.Imports() {
		if !seen[imp] {
			if found := findPackage(imp, path, seen); found != nil {
				return found
			}
		}
	}
	return nil
}
