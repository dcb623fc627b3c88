package generate

import (
	"go/token"
	"go/types"
	"strings"
)

// resolve finds the type a recorded type describes, among the types the
// package can see: the predeclared ones, its own, and those of the
// packages it imports (directly or not).
func (w *writer) resolve(d *typeDesc) (types.Type, error) {
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
func (w *writer) named(d *typeDesc) (types.Type, error) {
	if i := strings.IndexByte(d.Name, '['); i > 0 && strings.HasSuffix(d.Name, "]") {
		return w.instance(d.Path, d.Name[:i], d.Name[i+1:len(d.Name)-1])
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

// instance resolves an instance of a generic type: its package path,
// its name, and its type arguments as reflect writes them ("int,
// example.com/p.T, []string").
func (w *writer) instance(path, name, args string) (types.Type, error) {
	base, err := w.named(&typeDesc{Path: path, Name: name})
	if err != nil {
		return nil, err
	}
	var targs []types.Type
	for _, a := range splitTop(args) {
		t, err := w.typeString(strings.TrimSpace(a))
		if err != nil {
			return nil, err
		}
		targs = append(targs, t)
	}
	inst, err := types.Instantiate(nil, base, targs, true)
	if err != nil {
		return nil, cannot("an interface holding %s[%s], which cannot be instantiated: %v", name, args, err)
	}
	return inst, nil
}

// typeString resolves a type as reflect writes it: a predeclared or
// package-qualified name (the full import path), a slice, pointer or map
// of such.
func (w *writer) typeString(s string) (types.Type, error) {
	switch {
	case strings.HasPrefix(s, "[]"):
		e, err := w.typeString(s[2:])
		if err != nil {
			return nil, err
		}
		return types.NewSlice(e), nil
	case strings.HasPrefix(s, "*"):
		e, err := w.typeString(s[1:])
		if err != nil {
			return nil, err
		}
		return types.NewPointer(e), nil
	case strings.HasPrefix(s, "map["):
		parts := splitTop(s[4:])
		if end := matching(s[4:]); end >= 0 && len(parts) > 0 {
			k, err := w.typeString(s[4 : 4+end])
			if err != nil {
				return nil, err
			}
			v, err := w.typeString(s[4+end+1:])
			if err != nil {
				return nil, err
			}
			return types.NewMap(k, v), nil
		}
	}
	name, path := s, ""
	if i := strings.IndexByte(s, '['); i >= 0 {
		name = s[:i]
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		path, s = s[:i], s[i+1:]
	}
	return w.named(&typeDesc{Path: path, Name: s})
}

// splitTop splits s at the commas outside brackets.
func splitTop(s string) []string {
	var out []string
	start := 0
	scanTop(s, func(i int, r rune) bool {
		if r == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
		return false
	})
	return append(out, s[start:])
}

// matching is the index of the ']' closing a '[' just before s, or -1.
func matching(s string) int {
	return scanTop(s, func(_ int, r rune) bool { return r == ']' })
}

// scanTop calls f with each rune of s outside brackets (a ']' closing
// none counts as outside) until f returns true, and returns that rune's
// index, or -1.
func scanTop(s string, f func(i int, r rune) bool) int {
	depth := 0
	for i, r := range s {
		if r == ']' && depth > 0 {
			depth--
			continue
		}
		if depth == 0 && f(i, r) {
			return i
		}
		if r == '[' {
			depth++
		}
	}
	return -1
}
