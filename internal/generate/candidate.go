package generate

import (
	"fmt"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
)

// candidate writes the benchmark of t from the recorded calls (by key),
// or says why it cannot.
func (pl *plan) candidate(w *writer, t *Target, calls map[string][]*recordedCall, name string) (*candidate, string) {
	recs := calls[pl.key[t.decl]]
	if len(recs) == 0 {
		return nil, uncalled(t)
	}
	if t.obj == nil {
		return nil, "no type information"
	}
	w.used = map[string]bool{}
	w.ptr = false
	sig := t.obj.Type().(*types.Signature)
	var setup, loop []string
	var why string
	if sig.Recv() == nil {
		loop, why = pl.funcCalls(w, t, recs, &setup)
	} else {
		loop, why = pl.methodCalls(w, t, recs, &setup)
		if len(loop) == 0 && recvBase(t.obj) != nil {
			setup = nil
			var why2 string
			if loop, why2 = pl.replay(w, t, recs, calls, &setup); len(loop) == 0 {
				why += "; " + why2
			}
		}
	}
	if len(loop) == 0 {
		return nil, why
	}
	var b strings.Builder
	for _, s := range setup {
		b.WriteString(s + "\n")
	}
	b.WriteString("for b.Loop() {\n")
	for _, s := range loop {
		b.WriteString(s + "\n")
	}
	b.WriteString("}\n")
	c := &candidate{Target: t, Name: name, Body: b.String(), Ptr: w.ptr, Calls: len(loop)}
	c.Uses = slices.Sorted(maps.Keys(w.used))
	for _, s := range setup {
		if strings.HasPrefix(s, "r.") {
			c.Replay++
		}
	}
	return c, ""
}

// funcCalls writes up to maxCalls calls of a function from its heaviest
// recorded calls.
func (pl *plan) funcCalls(w *writer, t *Target, recs []*recordedCall, setup *[]string) ([]string, string) {
	var loop []string
	why := ""
	n := 0
	for _, c := range byWeight(recs) {
		if len(loop) == maxCalls {
			break
		}
		s, err := pl.callText(w, t, c, t.obj.Name(), c.Args, setup, &n)
		if err != nil {
			why = firstWhy(why, err)
			continue
		}
		loop = append(loop, s)
	}
	return loop, why
}

// methodCalls writes up to maxCalls calls of a method on receivers
// written as literals, one variable each.
func (pl *plan) methodCalls(w *writer, t *Target, recs []*recordedCall, setup *[]string) ([]string, string) {
	var loop []string
	why := ""
	n := 0
	for _, c := range byWeight(recs) {
		if len(loop) == maxCalls {
			break
		}
		if len(c.Args) == 0 {
			continue
		}
		sig, _, err := w.callSig(t.obj, c)
		if err != nil {
			why = firstWhy(why, err)
			continue
		}
		var pre []string
		rx, err := w.expr(sig.Recv().Type(), c.Args[0], false)
		if err != nil {
			why = firstWhy(why, fmt.Errorf("its receiver cannot be written as a literal: %w", err))
			continue
		}
		r := fmt.Sprintf("r%d", len(loop))
		pre = append(pre, r+" := "+rx)
		s, err := pl.callText(w, t, c, r+"."+t.obj.Name(), c.Args[1:], &pre, &n)
		if err != nil {
			why = firstWhy(why, err)
			continue
		}
		*setup = append(*setup, pre...)
		loop = append(loop, s)
	}
	return loop, why
}

// callText writes one call statement of t's function as fun, hoisting
// arguments into setup.
func (pl *plan) callText(w *writer, t *Target, c *recordedCall, fun string, vals []*recordedValue, setup *[]string, n *int) (string, error) {
	if c.Big {
		return "", cannot("%s", kindReason["big"])
	}
	sig, targs, err := w.callSig(t.obj, c)
	if err != nil {
		return "", err
	}
	args, err := w.args(sig, vals)
	if err != nil {
		return "", err
	}
	for i := range args {
		args[i] = hoist(args[i], setup, n)
	}
	return resultsLHS(sig) + fun + targs + "(" + strings.Join(args, ", ") + ")", nil
}

// firstWhy keeps the first reason.
func firstWhy(why string, err error) string {
	if why != "" {
		return why
	}
	return err.Error()
}

// uncalled says why t, which no test calls, gets no benchmark, and what
// would give it one.
func uncalled(t *Target) string {
	what := "no test calls it"
	if tests, _ := filepath.Glob(filepath.Join(t.pkg.Dir, "*_test.go")); len(tests) == 0 {
		what = "its package has no tests"
	}
	n := len(t.Mutants)
	return fmt.Sprintf("%s, so there are no arguments to capture and its %s %s without a benchmark; add a test that calls %s with typical arguments, then run perfmut generate again",
		what, english.Plural(n, "mutant"), english.Choose(n, "stays", "stay"), t.Function)
}
