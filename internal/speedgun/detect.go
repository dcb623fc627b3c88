package speedgun

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
)

// A target is a thread-safe type of the package and how to make and use
// one.
type target struct {
	name     string       // the type's name: Store, LRU
	display  string       // the shared instance's type: *Store, *LRU[int]
	inst     types.Type   // the (instantiated) named type
	typeArgs []types.Type // the type arguments of a generic type
	why      string       // what makes it thread-safe
	creators []creator
	methods  []method
}

// A creator makes the shared instance: a constructor or the zero value.
type creator struct {
	cover    string       // the constructor's name ("" for the zero value)
	call     string       // the call's function: New, New[int]
	params   []types.Type // the constructor's parameters
	variadic bool
	err      bool // its last result is an error
}

// A method is an exported method the suffixes call.
type method struct {
	name     string
	cover    string // (*Store).Set or Stats.String
	params   []types.Type
	variadic bool
	results  int  // how many results it returns
	errs     bool // its last result is an error
}

// concurrentDoc matches a doc comment that says a type is safe for
// concurrent use.
var concurrentDoc = regexp.MustCompile(`(?i)safe for (concurrent|simultaneous) use|safe to use concurrently|concurren(t|cy)[- ]safe|goroutine[- ]safe|thread[- ]safe|safe for use by multiple goroutines`)

// documentedSafe reports whether a doc comment says the type is safe for
// concurrent use, and not that it is not.
func documentedSafe(doc string) bool {
	doc = strings.Join(strings.Fields(doc), " ")
	for _, m := range concurrentDoc.FindAllStringIndex(doc, -1) {
		before := strings.ToLower(doc[max(0, m[0]-12):m[0]])
		if !strings.Contains(before, "not ") && !strings.Contains(before, "n't ") {
			return true
		}
	}
	return false
}

// lifecycle are method names that end an instance's life: a suffix that
// calls them measures a closed instance, so they are not called.
var lifecycle = map[string]bool{"Close": true, "Stop": true, "Shutdown": true}

// findTargets returns the package's thread-safe types with their creators
// and callable methods, and the types and methods it skips with reasons.
func findTargets(pkg *types.Package, files []*ast.File, allowed map[string][]string, ctors []string) ([]*target, []Skipped) {
	docs := typeDocs(files)
	var out []*target
	var skipped []Skipped
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		why := syncField(named.Underlying(), map[types.Type]bool{}, 0)
		if why == "" && documentedSafe(docs[name]) {
			why = "documented as safe for concurrent use"
		}
		if why == "" {
			continue
		}
		if allowed != nil && allowed[name] == nil {
			continue
		}
		t, reason := newTarget(pkg, tn, named, why)
		if t == nil {
			skipped = append(skipped, Skipped{Type: name, Reason: reason})
			continue
		}
		sk := t.addMethods(pkg, allowed)
		skipped = append(skipped, sk...)
		if len(t.methods) == 0 {
			skipped = append(skipped, Skipped{Type: t.display, Reason: "no exported method whose arguments a value pool can write"})
			continue
		}
		t.addCreators(pkg, ctors)
		out = append(out, t)
	}
	return out, skipped
}

// newTarget instantiates a generic type with int (or string) for each
// type parameter whose constraint allows it.
func newTarget(pkg *types.Package, tn *types.TypeName, named *types.Named, why string) (*target, string) {
	t := &target{name: tn.Name(), inst: named, why: why}
	if tps := named.TypeParams(); tps.Len() > 0 {
		for i := range tps.Len() {
			tp := tps.At(i)
			var arg types.Type
			for _, c := range []types.Type{types.Typ[types.Int], types.Typ[types.String]} {
				if types.Satisfies(c, tp.Constraint().Underlying().(*types.Interface)) {
					arg = c
					break
				}
			}
			if arg == nil {
				return nil, fmt.Sprintf("type parameter %s %s: neither int nor string satisfies its constraint", tp.Obj().Name(), tp.Constraint())
			}
			t.typeArgs = append(t.typeArgs, arg)
		}
		inst, err := types.Instantiate(nil, named, t.typeArgs, true)
		if err != nil {
			return nil, "cannot instantiate: " + err.Error()
		}
		t.inst = inst
	}
	t.display = "*" + types.TypeString(t.inst, types.RelativeTo(pkg))
	return t, ""
}

// syncField names the field that makes a struct type thread-safe: a
// sync.Mutex, RWMutex or Map, or a sync/atomic value, also through a
// pointer, an embedded field or a named struct field (to depth 3).
func syncField(t types.Type, seen map[types.Type]bool, depth int) string {
	st, ok := t.(*types.Struct)
	if !ok || depth > 3 || seen[t] {
		return ""
	}
	seen[t] = true
	for f := range st.Fields() {
		ft := f.Type()
		if p, ok := ft.(*types.Pointer); ok {
			ft = p.Elem()
		}
		if n, ok := ft.(*types.Named); ok && n.Obj().Pkg() != nil {
			path, name := n.Obj().Pkg().Path(), n.Obj().Name()
			if path == "sync" && (name == "Mutex" || name == "RWMutex" || name == "Map") || path == "sync/atomic" {
				return fmt.Sprintf("field %s %s.%s", f.Name(), n.Obj().Pkg().Name(), name)
			}
		}
		if inner := syncField(ft.Underlying(), seen, depth+1); inner != "" {
			return fmt.Sprintf("field %s: %s", f.Name(), inner)
		}
	}
	return ""
}

// typeDocs maps the package's type names to their doc comments.
func typeDocs(files []*ast.File) map[string]string {
	docs := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if doc != nil {
					docs[ts.Name.Name] = doc.Text()
				}
			}
		}
	}
	return docs
}

// addMethods adds t's exported methods (of its pointer's method set) that
// the pools can call, and returns the others as skipped.
func (t *target) addMethods(pkg *types.Package, allowed map[string][]string) []Skipped {
	var skipped []Skipped
	ms := types.NewMethodSet(types.NewPointer(t.inst))
	for sel := range ms.Methods() {
		fn := sel.Obj().(*types.Func)
		if !fn.Exported() || allowed != nil && !slices.Contains(allowed[t.name], fn.Name()) || fromSync(fn) {
			continue
		}
		sig := sel.Type().(*types.Signature)
		m := method{name: fn.Name(), cover: coverName(fn), variadic: sig.Variadic(), results: sig.Results().Len()}
		m.errs = m.results > 0 && isError(sig.Results().At(m.results-1).Type())
		for p := range sig.Params().Variables() {
			m.params = append(m.params, p.Type())
		}
		if lifecycle[m.name] {
			skipped = append(skipped, Skipped{Type: m.cover, Reason: "ends the instance's life"})
			continue
		}
		if bad := unpoolable(m.params, m.variadic); bad != nil {
			skipped = append(skipped, Skipped{Type: m.cover, Reason: fmt.Sprintf("no value pool for a parameter of type %s", types.TypeString(bad, types.RelativeTo(pkg)))})
			continue
		}
		t.methods = append(t.methods, m)
	}
	return skipped
}

// fromSync reports whether fn is a method of package sync or sync/atomic
// promoted through an embedded field: the lock itself, not the type's
// API.
func fromSync(fn *types.Func) bool {
	p := fn.Pkg()
	return p != nil && (p.Path() == "sync" || p.Path() == "sync/atomic")
}

// coverName names a method as report.json does: T.M or (*T).M.
func coverName(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn.Name()
	}
	rt := sig.Recv().Type()
	star := false
	if p, ok := rt.(*types.Pointer); ok {
		rt, star = p.Elem(), true
	}
	recv := "?"
	if n, ok := rt.(*types.Named); ok {
		recv = n.Obj().Name()
	}
	if star {
		return "(*" + recv + ")." + fn.Name()
	}
	return recv + "." + fn.Name()
}

// addCreators adds the exported constructors of t (functions returning t
// or *t, and maybe an error, whose arguments the pools can write) and the
// zero value, last.
func (t *target) addCreators(pkg *types.Package, allowed []string) {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !fn.Exported() || allowed != nil && !slices.Contains(allowed, name) {
			continue
		}
		if c, ok := t.constructor(pkg, fn); ok {
			t.creators = append(t.creators, c)
		}
	}
	t.creators = append(t.creators, creator{})
}

// constructor reports whether fn makes a t, instantiated with t's type
// arguments when both are generic.
func (t *target) constructor(pkg *types.Package, fn *types.Func) (creator, bool) {
	sig := fn.Type().(*types.Signature)
	res := sig.Results()
	if res.Len() == 0 || res.Len() > 2 || res.Len() == 2 && !isError(res.At(1).Type()) {
		return creator{}, false
	}
	call := fn.Name()
	if tps := sig.TypeParams(); tps.Len() > 0 {
		args := t.funcTypeArgs(res.At(0).Type(), tps)
		if args == nil {
			return creator{}, false
		}
		inst, err := types.Instantiate(nil, sig, args, true)
		if err != nil {
			return creator{}, false
		}
		sig = inst.(*types.Signature)
		res = sig.Results()
		var names []string
		for _, a := range args {
			names = append(names, types.TypeString(a, types.RelativeTo(pkg)))
		}
		call += "[" + strings.Join(names, ", ") + "]"
	}
	r := res.At(0).Type()
	if p, ok := r.(*types.Pointer); ok {
		r = p.Elem()
	}
	if !types.Identical(r, t.inst) {
		return creator{}, false
	}
	c := creator{cover: fn.Name(), call: call, variadic: sig.Variadic(), err: res.Len() == 2}
	for p := range sig.Params().Variables() {
		c.params = append(c.params, p.Type())
	}
	if unpoolable(c.params, c.variadic) != nil {
		return creator{}, false
	}
	return c, true
}

// funcTypeArgs maps a generic constructor's type parameters to t's type
// arguments through its result type (*T[V] for T[int] gives V = int); nil
// if some parameter is not determined.
func (t *target) funcTypeArgs(result types.Type, tps *types.TypeParamList) []types.Type {
	if p, ok := result.(*types.Pointer); ok {
		result = p.Elem()
	}
	n, ok := result.(*types.Named)
	if !ok || n.Origin() != t.inst.(*types.Named).Origin() || n.TypeArgs().Len() != len(t.typeArgs) {
		return nil
	}
	args := make([]types.Type, tps.Len())
	for i := range n.TypeArgs().Len() {
		tp, ok := n.TypeArgs().At(i).(*types.TypeParam)
		if !ok {
			return nil
		}
		args[tp.Index()] = t.typeArgs[i]
	}
	if slices.Contains(args, nil) {
		return nil
	}
	return args
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
