package speedgun

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Pools are the literals arguments are drawn from: a few keys (so that the
// goroutines contend on them), numbers and sizes, harvested from the
// package's test files where they have some, completed with defaults.
type pools struct {
	strs   []string
	ints   []int64
	floats []float64
	sizes  []int64 // lengths of byte slices
	// calls are the literal argument lists of the tests' calls of the
	// package's functions, by function name, in the order seen.
	calls map[string][][]*ast.BasicLit
}

// poolSize is how many numbers of a kind a pool holds; keyPoolSize how
// many strings: few, so that the goroutines meet on the same keys and a
// read finds what a write stored.
const (
	poolSize    = 4
	keyPoolSize = 4
)

// forConstructor returns the pools a constructor's arguments come from:
// the largest integer only, as constructors take capacities and sizes.
func (p pools) forConstructor() pools {
	p.ints = []int64{slices.Max(p.ints)}
	return p
}

// harvest collects the literals of the _test.go files in dir: the most
// frequent short key-like strings, small integers and floats.
func harvest(dir string) pools {
	strs, ints, floats := map[string]int{}, map[int64]int{}, map[float64]int{}
	var order []string // first-seen order breaks frequency ties
	calls := map[string][][]*ast.BasicLit{}
	for _, f := range parseTests(dir) {
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.ImportSpec); ok {
				return false
			}
			if name, args, ok := literalCall(n); ok {
				calls[name] = append(calls[name], args)
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok {
				return true
			}
			order = append(order, lit.Value)
			switch lit.Kind {
			case token.STRING:
				if s, err := strconv.Unquote(lit.Value); err == nil && keyLike(s) {
					strs[s]++
				}
			case token.INT:
				if v, err := strconv.ParseInt(strings.ReplaceAll(lit.Value, "_", ""), 0, 64); err == nil && v >= -1<<20 && v <= 1<<20 {
					ints[v]++
				}
			case token.FLOAT:
				if v, err := strconv.ParseFloat(lit.Value, 64); err == nil && !math.IsInf(v, 0) {
					floats[v]++
				}
			}
			return true
		})
	}
	p := pools{
		calls:  calls,
		strs:   top(strs, order, func(s string) string { return strconv.Quote(s) }),
		ints:   top(ints, order, func(v int64) string { return strconv.FormatInt(v, 10) }),
		floats: top(floats, order, func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }),
	}
	// The largest two sizes: a longer operation under a lock shows how
	// its holders serialize.
	for v := range ints {
		if v > 1 && v <= 1<<16 {
			p.sizes = append(p.sizes, v)
		}
	}
	slices.Sort(p.sizes)
	slices.Reverse(p.sizes)
	p.sizes = p.sizes[:min(2, len(p.sizes))]
	p.strs = fill(p.strs, []string{"k0", "k1", "k2", "k3"}, keyPoolSize)
	p.ints = fill(p.ints, []int64{1, 2, 3, 8}, poolSize)
	p.floats = fill(p.floats, []float64{0.5, 1, 2}, poolSize)
	if len(p.sizes) == 0 {
		p.sizes = []int64{16, 256}
	}
	return p
}

// keyLike reports whether a test's string literal looks like a key or a
// value rather than a message or a path: short, printable, no spaces,
// verbs or slashes.
func keyLike(s string) bool {
	if s == "" || len(s) > 16 || strings.ContainsAny(s, "% \t\n/\\") {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) || r == unicode.ReplacementChar {
			return false
		}
	}
	return true
}

// top returns the poolSize most frequent values, ties in first-seen order
// (lit renders a value as the test file spells it, roughly).
func top[T comparable](count map[T]int, order []string, lit func(T) string) []T {
	first := map[string]int{}
	for i, s := range order {
		if _, ok := first[s]; !ok {
			first[s] = i
		}
	}
	var vals []T
	for v := range count {
		vals = append(vals, v)
	}
	slices.SortFunc(vals, func(a, b T) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(firstOr(first, lit(a)), firstOr(first, lit(b))), strings.Compare(lit(a), lit(b)))
	})
	return vals[:min(len(vals), poolSize)]
}

func firstOr(first map[string]int, s string) int {
	if i, ok := first[s]; ok {
		return i
	}
	return math.MaxInt
}

// fill completes vals to n values from defaults.
func fill[T comparable](vals, defaults []T, n int) []T {
	for _, d := range defaults {
		if len(vals) >= n {
			break
		}
		if !slices.Contains(vals, d) {
			vals = append(vals, d)
		}
	}
	return vals
}

// unpoolable returns the first parameter type no pool can write, or nil.
func unpoolable(params []types.Type, variadic bool) types.Type {
	var p pools
	p.strs, p.ints, p.floats, p.sizes = []string{"a"}, []int64{1}, []float64{1}, []int64{1}
	for i, t := range params {
		if variadic && i == len(params)-1 {
			t = t.(*types.Slice).Elem()
		}
		if len(p.values(t, func(*types.Package) string { return "" })) == 0 {
			return t
		}
	}
	return nil
}

// values returns the Go expressions of t's pool, qualified by qual.
func (p pools) values(t types.Type, qual types.Qualifier) []string {
	conv := func(vals []string) []string { return vals }
	if n, ok := t.(*types.Named); ok {
		if n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context" {
			qual(n.Obj().Pkg())
			return []string{"context.Background()"}
		}
		if n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration" {
			// The tests' small integers would be nanoseconds: a cache's
			// janitor every 3ns, entries that expire at once.
			q := qual(n.Obj().Pkg())
			return []string{q + ".Minute", q + ".Second", "0"}
		}
		if _, basic := n.Underlying().(*types.Basic); basic {
			if !n.Obj().Exported() && n.Obj().Pkg() != nil && qual(n.Obj().Pkg()) != "" {
				return nil
			}
			name := types.TypeString(n, qual)
			conv = func(vals []string) []string {
				out := make([]string, len(vals))
				for i, v := range vals {
					out[i] = name + "(" + v + ")"
				}
				return out
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return conv(p.basic(u))
	case *types.Slice:
		return p.slice(u, qual)
	case *types.Interface:
		if u.Empty() {
			return quoteAll(p.strs)
		}
	}
	return nil
}

// basic returns the pool of a basic type: the values it can represent.
func (p pools) basic(b *types.Basic) []string {
	info := b.Info()
	switch {
	case info&types.IsString != 0:
		return quoteAll(p.strs)
	case info&types.IsBoolean != 0:
		return []string{"true", "false"}
	case info&types.IsInteger != 0:
		var out []string
		for _, v := range p.ints {
			if fits(v, b) {
				out = append(out, strconv.FormatInt(v, 10))
			}
		}
		return out
	case info&types.IsFloat != 0:
		var out []string
		for _, v := range p.floats {
			out = append(out, strconv.FormatFloat(v, 'g', -1, 64))
		}
		return out
	}
	return nil
}

// fits reports whether v is representable in the integer type b.
func fits(v int64, b *types.Basic) bool {
	bits := map[types.BasicKind]uint{types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Uint8: 8, types.Uint16: 16, types.Uint32: 32}[b.Kind()]
	unsigned := b.Info()&types.IsUnsigned != 0
	switch {
	case unsigned && v < 0:
		return false
	case bits == 0:
		return true
	case unsigned:
		return v < 1<<bits
	}
	return v >= -1<<(bits-1) && v < 1<<(bits-1)
}

// slice returns the pool of a slice type: byte slices from the keys and
// zeroed buffers of the sizes, other slices of their element's pool.
func (p pools) slice(s *types.Slice, qual types.Qualifier) []string {
	name := types.TypeString(s, qual)
	if b, ok := s.Elem().(*types.Basic); ok && b.Kind() == types.Uint8 {
		var out []string
		for _, v := range p.strs[:min(2, len(p.strs))] {
			out = append(out, fmt.Sprintf("%s(%s)", name, strconv.Quote(v)))
		}
		for _, n := range p.sizes {
			out = append(out, fmt.Sprintf("make(%s, %d)", name, n))
		}
		return out
	}
	elems := p.values(s.Elem(), qual)
	if len(elems) == 0 {
		return nil
	}
	return []string{name + "{" + strings.Join(elems[:min(3, len(elems))], ", ") + "}", name + "{" + elems[0] + "}"}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// parseTests parses the _test.go files in dir, in name order, skipping
// those that do not parse.
func parseTests(dir string) []*ast.File {
	names, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	slices.Sort(names)
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution); err == nil {
			files = append(files, f)
		}
	}
	return files
}

// literalCall reports whether n calls a function of the package by its
// name (F(...) or F[T](...)) with only literal arguments, and returns them.
func literalCall(n ast.Node) (string, []*ast.BasicLit, bool) {
	call, ok := n.(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return "", nil, false
	}
	fun := call.Fun
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	id, ok := fun.(*ast.Ident)
	if !ok {
		return "", nil, false
	}
	var args []*ast.BasicLit
	for _, a := range call.Args {
		lit, ok := a.(*ast.BasicLit)
		if !ok {
			return "", nil, false
		}
		args = append(args, lit)
	}
	return id.Name, args, true
}

// harvestedArgs returns the arguments of the tests' first call of the
// function name whose literals suit params, and whether there is one.
func (p pools) harvestedArgs(name string, params []types.Type, variadic bool) (string, bool) {
	if variadic {
		return "", false
	}
	for _, args := range p.calls[name] {
		if len(args) != len(params) {
			continue
		}
		var srcs []string
		for i, a := range args {
			if !literalSuits(a, params[i]) {
				break
			}
			srcs = append(srcs, a.Value)
		}
		if len(srcs) == len(args) {
			return strings.Join(srcs, ", "), true
		}
	}
	return "", false
}

// literalSuits reports whether lit can be passed as a t: a string to a
// string kind, an integer to a numeric kind, a float to a float kind.
func literalSuits(lit *ast.BasicLit, t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	info := b.Info()
	switch lit.Kind {
	case token.STRING:
		return info&types.IsString != 0
	case token.INT:
		return info&types.IsInteger != 0 || info&types.IsFloat != 0
	case token.FLOAT:
		return info&types.IsFloat != 0
	}
	return false
}
