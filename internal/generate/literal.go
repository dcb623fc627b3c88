package generate

import (
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// A writer writes recorded values as Go expressions in the package pkg
// (a _test.go file of it): the other packages' names it uses become the
// file's imports.
type writer struct {
	pkg     *types.Package
	imports map[string]string // import path -> name in the file
	used    map[string]bool   // import paths the current benchmark uses
	ptr     bool              // the perfmutPtr helper is used
}

func newWriter(pkg *types.Package) *writer {
	return &writer{pkg: pkg, imports: map[string]string{}}
}

// unwritable is why a value or type cannot be written in the file.
type unwritable string

func (u unwritable) Error() string { return string(u) }

func cannot(format string, args ...any) error { return unwritable(fmt.Sprintf(format, args...)) }

// use returns the name by which the file refers to package p, adding
// its import (renamed if another import has its name).
func (w *writer) use(path, name string) string {
	if w.used != nil {
		w.used[path] = true
	}
	if n, ok := w.imports[path]; ok {
		return n
	}
	n := name
	for i := 2; slices.Contains(mapValues(w.imports), n) || w.pkg.Scope().Lookup(n) != nil; i++ {
		n = name + strconv.Itoa(i)
	}
	w.imports[path] = n
	return n
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// typeExpr writes t, or says why the file cannot name it.
func (w *writer) typeExpr(t types.Type) (string, error) {
	if err := w.nameable(t, 0); err != nil {
		return "", err
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p == w.pkg {
			return ""
		}
		return w.use(p.Path(), p.Name())
	}), nil
}

// nameable says why t cannot be written in the package's test file: it
// names an unexported type of another package, or a type parameter.
func (w *writer) nameable(t types.Type, depth int) error {
	if depth > 20 {
		return nil
	}
	switch t := t.(type) {
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() != nil && obj.Pkg() != w.pkg && !obj.Exported() {
			return cannot("the type %s.%s is unexported in another package", obj.Pkg().Name(), obj.Name())
		}
		if obj.Pkg() != nil && obj.Parent() != obj.Pkg().Scope() {
			return cannot("the type %s is local to a function", obj.Name())
		}
		for i := range t.TypeArgs().Len() {
			if err := w.nameable(t.TypeArgs().At(i), depth+1); err != nil {
				return err
			}
		}
	case *types.Alias:
		return w.nameable(types.Unalias(t), depth+1)
	case *types.TypeParam:
		return cannot("its type %s is a type parameter", t.Obj().Name())
	case *types.Pointer:
		return w.nameable(t.Elem(), depth+1)
	case *types.Slice:
		return w.nameable(t.Elem(), depth+1)
	case *types.Array:
		return w.nameable(t.Elem(), depth+1)
	case *types.Map:
		if err := w.nameable(t.Key(), depth+1); err != nil {
			return err
		}
		return w.nameable(t.Elem(), depth+1)
	case *types.Struct:
		for i := range t.NumFields() {
			if err := w.nameable(t.Field(i).Type(), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// expr writes v, a value of type t, as an expression; typed asks for an
// expression of exactly type t (in an interface, or where an untyped
// constant would take another type).
func (w *writer) expr(t types.Type, v *recordedValue, typed bool) (string, error) {
	switch v.Kind {
	case "func", "chan", "unsafe.Pointer", "cycle", "big":
		return "", cannot("%s", kindReason[v.Kind])
	case "nil":
		if !typed {
			return "nil", nil
		}
		te, err := w.typeExpr(t)
		if err != nil {
			return "", err
		}
		return "(" + te + ")(nil)", nil
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return w.basic(t, u, v, typed)
	case *types.Pointer:
		return w.pointer(t, u, v)
	case *types.Interface:
		return w.iface(v)
	case *types.Slice, *types.Array:
		return w.list(t, v)
	case *types.Map:
		return w.mapLit(t, u, v)
	case *types.Struct:
		return w.structLit(t, u, v)
	}
	return "", cannot("a value of type %s", t)
}

var kindReason = map[string]string{
	"func":           "a func value",
	"chan":           "a channel",
	"unsafe.Pointer": "an unsafe.Pointer",
	"cycle":          "a cycle of pointers",
	"big":            "a value too large to write (over the recorder's limits)",
}

// basic writes a boolean, number or string.
func (w *writer) basic(t types.Type, u *types.Basic, v *recordedValue, typed bool) (string, error) {
	var s string
	conv := typed // an untyped constant takes its default type
	switch {
	case v.Kind == "bool" && u.Info()&types.IsBoolean != 0,
		(v.Kind == "int" || v.Kind == "uint") && u.Info()&types.IsInteger != 0:
		s = v.Text
	case v.Kind == "string" && u.Info()&types.IsString != 0:
		s = strconv.Quote(v.Text)
	case v.Kind == "float" && u.Info()&types.IsFloat != 0:
		var special bool
		s, special = w.float(v.Text)
		conv = conv || special && !types.Identical(t, types.Typ[types.Float64])
	case v.Kind == "complex" && u.Info()&types.IsComplex != 0:
		re, sr := w.float(v.Text)
		im, si := w.float(v.Imag)
		s = "complex(" + re + ", " + im + ")"
		conv = conv || (sr || si) && !types.Identical(t, types.Typ[types.Complex128])
	default:
		return "", cannot("a %s value recorded for type %s", v.Kind, t)
	}
	if !conv {
		return s, nil
	}
	te, err := w.typeExpr(t)
	if err != nil {
		return "", err
	}
	return te + "(" + s + ")", nil
}

// float writes a recorded float; special is an expression of type
// float64 rather than a constant (NaN, the infinities, negative zero).
func (w *writer) float(text string) (s string, special bool) {
	switch text {
	case "NaN":
		return w.use("math", "math") + ".NaN()", true
	case "+Inf":
		return w.use("math", "math") + ".Inf(1)", true
	case "-Inf":
		return w.use("math", "math") + ".Inf(-1)", true
	case "-0":
		return w.use("math", "math") + ".Copysign(0, -1)", true
	}
	return text, false
}

// pointer writes &T{...} for a composite, perfmutPtr[T](v) otherwise.
func (w *writer) pointer(t types.Type, u *types.Pointer, v *recordedValue) (string, error) {
	if v.Kind != "ptr" || len(v.Elems) != 1 {
		return "", cannot("a %s value recorded for type %s", v.Kind, t)
	}
	elem := u.Elem()
	x, err := w.expr(elem, v.Elems[0], false)
	if err != nil {
		return "", err
	}
	switch elem.Underlying().(type) {
	case *types.Struct, *types.Array, *types.Slice, *types.Map:
		if strings.HasSuffix(x, "}") && x != "nil" {
			return "&" + x, nil
		}
	}
	te, err := w.typeExpr(elem)
	if err != nil {
		return "", err
	}
	w.ptr = true
	return "perfmutPtr[" + te + "](" + x + ")", nil
}

// iface writes the value an interface holds, as its dynamic type.
func (w *writer) iface(v *recordedValue) (string, error) {
	if v.Kind != "iface" || len(v.Elems) != 1 || v.Type == nil {
		return "", cannot("a %s value recorded for an interface", v.Kind)
	}
	dyn, err := w.resolve(v.Type)
	if err != nil {
		return "", err
	}
	return w.expr(dyn, v.Elems[0], true)
}

// list writes a slice or array literal.
func (w *writer) list(t types.Type, v *recordedValue) (string, error) {
	if v.Kind != "slice" && v.Kind != "array" {
		return "", cannot("a %s value recorded for type %s", v.Kind, t)
	}
	var elem types.Type
	elems := v.Elems
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
		for len(elems) > 0 && elems[len(elems)-1].isZero() {
			elems = elems[:len(elems)-1] // trailing zeros are implied
		}
	}
	te, err := w.typeExpr(t)
	if err != nil {
		return "", err
	}
	if s, ok := byteString(elem, v); ok {
		return te + "(" + s + ")", nil
	}
	parts := make([]string, len(elems))
	for i, e := range elems {
		if parts[i], err = w.expr(elem, e, false); err != nil {
			return "", err
		}
	}
	return te + "{" + strings.Join(parts, ", ") + "}", nil
}

// mapLit writes a map literal, its entries sorted by key.
func (w *writer) mapLit(t types.Type, u *types.Map, v *recordedValue) (string, error) {
	if v.Kind != "map" || len(v.Elems)%2 != 0 {
		return "", cannot("a %s value recorded for type %s", v.Kind, t)
	}
	te, err := w.typeExpr(t)
	if err != nil {
		return "", err
	}
	var parts []string
	for i := 0; i < len(v.Elems); i += 2 {
		k, err := w.expr(u.Key(), v.Elems[i], false)
		if err != nil {
			return "", err
		}
		val, err := w.expr(u.Elem(), v.Elems[i+1], false)
		if err != nil {
			return "", err
		}
		parts = append(parts, k+": "+val)
	}
	slices.SortFunc(parts, keyOrder)
	// Keys that print alike (NaN) cannot be written twice.
	if len(slices.Compact(slices.Clone(parts))) != len(parts) {
		return "", cannot("a map with keys that cannot be told apart in a literal")
	}
	return te + "{" + strings.Join(parts, ", ") + "}", nil
}

// structLit writes a struct literal with its non-zero fields by name.
func (w *writer) structLit(t types.Type, u *types.Struct, v *recordedValue) (string, error) {
	if v.Kind != "struct" || len(v.Elems) != u.NumFields() {
		return "", cannot("a %s value recorded for type %s", v.Kind, t)
	}
	te, err := w.typeExpr(t)
	if err != nil {
		return "", err
	}
	var parts []string
	for i := range u.NumFields() {
		f := u.Field(i)
		if v.Elems[i].isZero() {
			continue
		}
		if f.Name() == "_" {
			return "", cannot("a blank field of %s is set", t)
		}
		if !f.Exported() && f.Pkg() != w.pkg {
			return "", cannot("the unexported field %s of %s (another package) is set", f.Name(), t)
		}
		x, err := w.expr(f.Type(), v.Elems[i], false)
		if err != nil {
			return "", err
		}
		parts = append(parts, f.Name()+": "+x)
	}
	return te + "{" + strings.Join(parts, ", ") + "}", nil
}

// byteString writes a non-empty slice of bytes as a quoted string to
// convert: []byte("GET /\r\n") rather than []byte{71, 69, 84, ...}.
func byteString(elem types.Type, v *recordedValue) (string, bool) {
	if b, ok := elem.(*types.Basic); !ok || b.Kind() != types.Uint8 || v.Kind != "slice" || len(v.Elems) == 0 {
		return "", false
	}
	buf := make([]byte, len(v.Elems))
	for i, e := range v.Elems {
		n, err := strconv.ParseUint(e.Text, 10, 8)
		if e.Kind != "uint" || err != nil {
			return "", false
		}
		buf[i] = byte(n)
	}
	return strconv.Quote(string(buf)), true
}

// keyOrder orders a map literal's entries by key, numbers by value.
func keyOrder(a, b string) int {
	ka, kb := a[:strings.Index(a, ": ")], b[:strings.Index(b, ": ")]
	x, errA := strconv.ParseFloat(ka, 64)
	y, errB := strconv.ParseFloat(kb, 64)
	if errA == nil && errB == nil && x != y {
		if x < y {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}
