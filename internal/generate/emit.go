package generate

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"
	"unicode"

	"github.com/perfmut/perfmut/mutate"
)

// maxCalls is how many recorded calls a benchmark's loop makes at most.
const maxCalls = 3

// A candidate is one generated benchmark before its verification: the
// function declaration without its doc comment, and what it needs.
type candidate struct {
	Target *Target
	Name   string
	Doc    string   // the first line of its doc comment
	Body   string   // statements, the timed loop last
	Source string   // instead of Doc and Body: the whole declaration with its doc comment (a concurrent benchmark)
	Uses   []string // import paths Body refers to
	Ptr    bool     // Body uses the perfmutPtr helper
	Calls  int      // recorded calls the loop makes
	Replay int      // recorded calls replayed before the loop to build the receiver
}

// plan is what the instrumentation records: the targets and, for
// methods with a pointer receiver, the other exported methods and the
// constructors of their receiver's type (to build a receiver that no
// literal can write by replaying what the tests did to it).
type plan struct {
	probes  []probe
	key     map[*ast.FuncDecl]string
	byKey   map[string]*ast.FuncDecl
	targets []*Target
}

func newPlan(targets []*Target) *plan {
	pl := &plan{key: map[*ast.FuncDecl]string{}, byKey: map[string]*ast.FuncDecl{}, targets: targets}
	add := func(p *mutate.Package, fd *ast.FuncDecl) {
		if _, ok := pl.key[fd]; ok || fd.Body == nil {
			return
		}
		k := fmt.Sprintf("f%d", len(pl.probes))
		pl.key[fd], pl.byKey[k] = k, fd
		pl.probes = append(pl.probes, probe{pkg: p, decl: fd, key: k})
	}
	for _, t := range targets {
		add(t.pkg, t.decl)
	}
	for _, t := range targets {
		if base := recvBase(t.obj); base != nil {
			for _, fd := range related(t.pkg, base) {
				add(t.pkg, fd)
			}
		}
	}
	return pl
}

// recvBase is the named type of a method with a pointer receiver, or nil.
func recvBase(fn *types.Func) *types.Named {
	if fn == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return nil
	}
	ptr, ok := sig.Recv().Type().(*types.Pointer)
	if !ok {
		return nil
	}
	n, _ := ptr.Elem().(*types.Named)
	if n != nil {
		n = n.Origin()
	}
	return n
}

// related are the exported methods with a pointer receiver of base and
// the functions of the package that return a base or a *base.
func related(p *mutate.Package, base *types.Named) []*ast.FuncDecl {
	var out []*ast.FuncDecl
	for _, f := range p.Syntax() {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := p.TypesInfo().Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			if recvBase(fn) == base && fn.Exported() || isConstructor(fn, base) {
				out = append(out, fd)
			}
		}
	}
	return out
}

// isConstructor reports whether fn is a function returning a base or a
// *base first.
func isConstructor(fn *types.Func, base *types.Named) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil || sig.Results().Len() == 0 {
		return false
	}
	t := sig.Results().At(0).Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Origin() == base
}

// benchName is the benchmark's name for a function: BenchmarkPerfmut and
// its letters (Lower, (*LRU).Get: LRUGet), made unique among taken.
func benchName(function string, taken map[string]bool) string {
	var b strings.Builder
	b.WriteString("BenchmarkPerfmut")
	up := true
	for _, r := range function {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	name := b.String()
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s%d", b.String(), i)
	}
	taken[name] = true
	return name
}

// readableSize is the size of a recorded call's arguments (as recorded)
// above which its literal is too long to read: such calls are chosen
// only when no smaller one was recorded.
const readableSize = 2048

// byWeight orders recorded calls: the largest one of a readable size
// first, then the most frequent, then the first recorded; calls too long
// to read come last, the smallest first.
func byWeight(calls []*recordedCall) []*recordedCall {
	out := append([]*recordedCall(nil), calls...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ra, rb := a.Size() <= readableSize, b.Size() <= readableSize
		if ra != rb {
			return ra
		}
		if !ra {
			return a.Size() < b.Size()
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Line < b.Line
	})
	// The largest readable call first.
	best := -1
	for i, c := range out {
		if c.Size() <= readableSize && (best < 0 || c.Size() > out[best].Size()) {
			best = i
		}
	}
	if best > 0 {
		c := out[best]
		copy(out[1:best+1], out[:best])
		out[0] = c
	}
	return out
}

// resultsLHS is what a call's results are assigned to ("_, _ = "), so
// that vet's unusedresult has nothing to say.
func resultsLHS(sig *types.Signature) string {
	n := sig.Results().Len()
	if n == 0 {
		return ""
	}
	return strings.TrimSuffix(strings.Repeat("_, ", n), ", ") + " = "
}
