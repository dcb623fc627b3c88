package speedgun

import (
	"go/types"

	"github.com/perfmut/perfmut/mutate"
)

// A Type is a thread-safe type of a package, as Generate would generate
// for it.
type Type struct {
	Name string // Store
	Why  string // what makes it thread-safe
	// Methods maps its exported methods to their signatures, written
	// relative to the package (so that two versions can be compared).
	Methods map[string]string
	// Constructors maps the exported functions that make one to their
	// signatures.
	Constructors map[string]string
	// Covers maps its exported methods to their names in report.json,
	// by their declared receiver: (*Cache).Get, or (*cache).Get for a
	// method promoted from an embedded *cache.
	Covers map[string]string
}

// Types lists the thread-safe types of pkg (loaded by mutate.Load) with
// all their exported methods and constructors, whatever their parameters.
func Types(pkg *mutate.Package) []Type {
	tp := pkg.Types()
	if tp == nil {
		return nil
	}
	targets, _ := findTargets(tp, pkg.Syntax(), nil, nil)
	qual := types.RelativeTo(tp)
	var out []Type
	for _, t := range targets {
		ty := Type{Name: t.name, Why: t.why, Methods: map[string]string{}, Constructors: map[string]string{}, Covers: map[string]string{}}
		for sel := range types.NewMethodSet(types.NewPointer(t.inst)).Methods() {
			if fn := sel.Obj().(*types.Func); fn.Exported() && !fromSync(fn) {
				ty.Methods[fn.Name()] = types.TypeString(sel.Type(), qual)
				ty.Covers[fn.Name()] = coverName(fn)
			}
		}
		for _, c := range t.creators {
			if c.cover != "" {
				ty.Constructors[c.cover] = types.TypeString(tp.Scope().Lookup(c.cover).Type(), qual)
			}
		}
		out = append(out, ty)
	}
	return out
}
