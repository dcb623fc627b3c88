package generate

import (
	"encoding/json"
	"go/types"
	"strings"
)

// callSig is fn's signature for a recorded call, its type parameters
// replaced by the recorded type arguments (the receiver's for a method
// of a generic type), and the type argument list a call of a generic
// function writes ("[int, string]"; "" otherwise).
func (w *writer) callSig(fn *types.Func, c *recordedCall) (*types.Signature, string, error) {
	sig := fn.Type().(*types.Signature)
	var base *types.Named
	tparams := sig.TypeParams()
	if sig.Recv() != nil {
		base, _ = deref(sig.Recv().Type()).(*types.Named)
		tparams = nil
		if base != nil {
			tparams = base.TypeParams()
		}
	}
	if tparams == nil || tparams.Len() == 0 {
		return sig, "", nil
	}
	if len(c.TypeArgs) != tparams.Len() {
		return nil, "", cannot("its type arguments were not recorded")
	}
	targs := make([]types.Type, len(c.TypeArgs))
	texts := make([]string, len(c.TypeArgs))
	for i, d := range c.TypeArgs {
		t, err := w.resolve(d)
		if err != nil {
			return nil, "", cannot("a type argument cannot be written: %v", strings.TrimPrefix(err.Error(), "an interface holding "))
		}
		if texts[i], err = w.typeExpr(t); err != nil {
			return nil, "", err
		}
		targs[i] = t
	}
	if base != nil {
		inst, err := types.Instantiate(nil, base.Origin(), targs, true)
		if err != nil {
			return nil, "", cannot("cannot instantiate %s: %v", base.Obj().Name(), err)
		}
		obj, _, _ := types.LookupFieldOrMethod(inst, true, w.pkg, fn.Name())
		m, ok := obj.(*types.Func)
		if !ok {
			return nil, "", cannot("no method %s on %s", fn.Name(), inst)
		}
		return m.Type().(*types.Signature), "", nil
	}
	inst, err := types.Instantiate(nil, sig, targs, true)
	if err != nil {
		return nil, "", cannot("cannot instantiate %s: %v", fn.Name(), err)
	}
	return inst.(*types.Signature), "[" + strings.Join(texts, ", ") + "]", nil
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// args writes a call's arguments (vals, without the receiver) for sig;
// a variadic call passes its recorded slice with "...".
func (w *writer) args(sig *types.Signature, vals []*recordedValue) ([]string, error) {
	params := sig.Params()
	if len(vals) != params.Len() {
		return nil, cannot("%d arguments recorded for %d parameters", len(vals), params.Len())
	}
	var out []string
	for i, v := range vals {
		x, err := w.expr(params.At(i).Type(), v, false)
		if err != nil {
			return nil, err
		}
		if sig.Variadic() && i == params.Len()-1 {
			if x == "nil" {
				continue
			}
			x += "..."
		}
		out = append(out, x)
	}
	return out, nil
}

// hoist moves an argument that is not a constant into a variable set
// before the timed loop (a composite literal would be built again at
// every iteration), returning the argument to write.
func hoist(x string, setup *[]string, n *int) string {
	dots := strings.HasSuffix(x, "...")
	x = strings.TrimSuffix(x, "...")
	if isConst(x) {
		if dots {
			x += "..."
		}
		return x
	}
	v := "a" + itoa(*n)
	*n++
	*setup = append(*setup, v+" := "+x)
	if dots {
		v += "..."
	}
	return v
}

// isConst reports whether x is a literal constant or nil.
func isConst(x string) bool {
	if x == "nil" || x == "true" || x == "false" || x == "" {
		return true
	}
	c := x[0]
	return c == '"' || c == '\'' || c == '-' || c >= '0' && c <= '9'
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// sameTypeArgs reports whether two calls were made with the same type
// arguments.
func sameTypeArgs(a, b *recordedCall) bool {
	x, _ := json.Marshal(a.TypeArgs)
	y, _ := json.Marshal(b.TypeArgs)
	return string(x) == string(y)
}
