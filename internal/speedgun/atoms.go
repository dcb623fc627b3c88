package speedgun

import (
	"fmt"
	"go/types"
	"math/rand/v2"
	"slices"
	"strings"
)

// An atom is one call on the shared instance x with fixed arguments: the
// unit the sequences are made of.
type atom struct {
	src     string // x.Set("k0", []byte("abc"))
	cover   string // (*Store).Set
	focus   bool
	imports []string // the import paths src needs
	// results is how many results the call returns when its last is an
	// error (the driver counts the errors), else 0.
	results int
}

// A make is one way to create the shared instance: a constructor call
// with fixed arguments or the zero value.
type make_ struct {
	expr    string // New[int](2), new(Store)
	cover   string // the constructor's name; "" for the zero value
	err     bool   // the call returns an error too
	value   bool   // the call returns a value, not a pointer
	imports []string
}

// atomsPerMethod is how many argument tuples of a method are drawn.
const atomsPerMethod = 3

// buildAtoms draws the atoms of t's methods and the ways to make it (a
// constructor with the arguments of its first call in the tests that has
// only literals, else from the pools), and collects the imports their
// expressions need.
func (t *target) buildAtoms(p pools, pkg *types.Package, focus map[string]bool, rng *rand.Rand, imports map[string]bool) ([]atom, []make_) {
	cur := map[string]bool{}
	qual := func(q *types.Package) string {
		if q == pkg {
			return ""
		}
		cur[q.Path()] = true
		imports[q.Path()] = true
		return q.Name()
	}
	used := func() []string {
		out := sortedKeys(cur)
		clear(cur)
		return out
	}
	var atoms []atom
	for _, m := range t.methods {
		for _, args := range drawArgs(p, m.params, m.variadic, qual, rng) {
			a := atom{src: fmt.Sprintf("x.%s(%s)", m.name, args), cover: m.cover, focus: focus[m.cover], imports: used()}
			if m.errs {
				a.results = m.results
			}
			atoms = append(atoms, a)
		}
	}
	var makes []make_
	for _, c := range t.creators {
		if c.cover == "" {
			expr := "new(" + types.TypeString(t.inst, qual) + ")"
			makes = append(makes, make_{expr: expr, imports: used()})
			continue
		}
		args, ok := p.harvestedArgs(c.cover, c.params, c.variadic)
		if !ok {
			args = drawArgs(p.forConstructor(), c.params, c.variadic, qual, rng)[0]
		}
		mk := make_{expr: fmt.Sprintf("%s(%s)", c.call, args), cover: c.cover, err: c.err}
		mk.value, mk.imports = !t.returnsPointer(pkg, c), used()
		makes = append(makes, mk)
	}
	return atoms, makes
}

// returnsPointer reports whether the constructor c returns *T.
func (t *target) returnsPointer(pkg *types.Package, c creator) bool {
	fn, ok := pkg.Scope().Lookup(c.cover).(*types.Func)
	if !ok {
		return true
	}
	_, ptr := fn.Type().(*types.Signature).Results().At(0).Type().(*types.Pointer)
	return ptr
}

// drawArgs draws up to atomsPerMethod distinct argument lists for params
// from the pools (a variadic parameter gets one value).
func drawArgs(p pools, params []types.Type, variadic bool, qual types.Qualifier, rng *rand.Rand) []string {
	choices := make([][]string, len(params))
	total := 1
	for i, t := range params {
		if variadic && i == len(params)-1 {
			t = t.(*types.Slice).Elem()
		}
		choices[i] = p.values(t, qual)
		total = min(total*len(choices[i]), 1000)
	}
	var out []string
	for tries := 0; len(out) < min(atomsPerMethod, total) && tries < 50; tries++ {
		args := make([]string, len(params))
		for i, c := range choices {
			args[i] = c[rng.IntN(len(c))]
		}
		s := strings.Join(args, ", ")
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}
