package generate

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
)

// replay builds the receiver of a method that no literal can write the
// way a test built it: the last call of a constructor of its type before
// the method's first chosen call, then the exported methods the test
// called on the same object in between, in order; the loop calls the
// method as the test did on that object (its distinct calls, up to
// maxCalls). The object chosen is the one the tests called the method
// on most.
func (pl *plan) replay(w *writer, t *Target, recs []*recordedCall, calls map[string][]*recordedCall, setup *[]string) ([]string, string) {
	obj := busiestObject(recs)
	if obj == "" {
		return nil, "no receiver to replay"
	}
	var chosen []*recordedCall
	for _, c := range recs {
		if c.Object == obj && len(chosen) < maxCalls {
			chosen = append(chosen, c)
		}
	}
	first := chosen[0]
	ctor, ctorDecl := pl.constructorCall(t, first, calls)
	if ctor == nil {
		return nil, "no call of a constructor of its receiver's type was recorded"
	}
	var pre []string
	n := 0
	cfn := pl.funcOf(t, ctorDecl)
	sig, targs, err := w.callSig(cfn, ctor)
	if err != nil {
		return nil, fmt.Sprintf("its constructor %s cannot be called: %v", cfn.Name(), err)
	}
	args, err := w.args(sig, ctor.Args)
	if err != nil {
		return nil, fmt.Sprintf("its constructor's arguments cannot be written: %v", err)
	}
	for i := range args {
		args[i] = hoist(args[i], &pre, &n)
	}
	lhs := "r"
	if sig.Results().Len() > 1 {
		lhs = "r" + stringsRepeat(", _", sig.Results().Len()-1)
	}
	call := cfn.Name() + targs + "(" + joinArgs(args) + ")"
	if _, ptr := sig.Results().At(0).Type().(*types.Pointer); !ptr {
		pre = append(pre, "rv"+lhs[1:]+" := "+call, "r := &rv")
	} else {
		pre = append(pre, lhs+" := "+call)
	}
	for _, c := range pl.objectCalls(calls, obj, ctor.Line, first.Line) {
		fn := pl.funcOf(t, pl.byKey[c.Fn])
		if fn == nil || !fn.Exported() {
			continue // called by the type's own methods: replaying them replays it
		}
		s, err := pl.callText(w, &Target{obj: fn}, c, "r."+fn.Name(), c.Args[1:], &pre, &n)
		if err != nil {
			return nil, fmt.Sprintf("a call of %s that built its receiver cannot be written: %v", fn.Name(), err)
		}
		pre = append(pre, s)
	}
	var loop []string
	for _, c := range chosen {
		s, err := pl.callText(w, t, c, "r."+t.obj.Name(), c.Args[1:], &pre, &n)
		if err != nil {
			return nil, err.Error()
		}
		loop = append(loop, s)
	}
	*setup = append(*setup, pre...)
	return loop, ""
}

// busiestObject is the receiver the recorded calls name most often.
func busiestObject(recs []*recordedCall) string {
	count := map[string]int{}
	best := ""
	for _, c := range recs {
		if c.Object == "" {
			continue
		}
		count[c.Object] += c.Count
		if best == "" || count[c.Object] > count[best] {
			best = c.Object
		}
	}
	return best
}

// constructorCall is the last recorded constructor call of t's receiver
// type before call, with the same type arguments.
func (pl *plan) constructorCall(t *Target, call *recordedCall, calls map[string][]*recordedCall) (*recordedCall, *ast.FuncDecl) {
	base := recvBase(t.obj)
	var best *recordedCall
	var decl *ast.FuncDecl
	for key, cs := range calls {
		fd := pl.byKey[key]
		fn := pl.funcOf(t, fd)
		if fn == nil || !isConstructor(fn, base) {
			continue
		}
		for _, c := range cs {
			if c.Line < call.Line && (best == nil || c.Line > best.Line) && sameTypeArgs(c, call) {
				best, decl = c, fd
			}
		}
	}
	return best, decl
}

// objectCalls are the recorded calls of exported methods on obj between
// the lines from and to, in order.
func (pl *plan) objectCalls(calls map[string][]*recordedCall, obj string, from, to int) []*recordedCall {
	var out []*recordedCall
	for _, cs := range calls {
		for _, c := range cs {
			if c.Object == obj && c.Line > from && c.Line < to {
				out = append(out, c)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// funcOf is the function object of a declaration of t's package.
func (pl *plan) funcOf(t *Target, fd *ast.FuncDecl) *types.Func {
	if fd == nil {
		return nil
	}
	for _, p := range pl.probes {
		if p.decl == fd {
			fn, _ := p.pkg.TypesInfo().Defs[fd.Name].(*types.Func)
			return fn
		}
	}
	return nil
}

func stringsRepeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func joinArgs(args []string) string {
	out := ""
	for i, a := range args {
		if i > 0 {
			out += ", "
		}
		out += a
	}
	return out
}
