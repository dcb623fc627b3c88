package runner

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/score"
)

// subsumers maps each mutant of a sized operator (mutate.Operator.Size) to
// the next smaller mutant of the same operator at the same site (same
// package, file, position and function, params equal but for the size):
// a kill of that one implies its own. Mutants without one are absent.
func subsumers(ms []mutate.Mutant) map[string]string {
	type site struct {
		op, pkg, file, fn, rest string
		line, col               int
	}
	type sized struct {
		id   string
		size float64
	}
	groups := map[site][]sized{}
	for _, m := range ms {
		op := operators.ByName(m.Operator)
		if op == nil || op.Size == "" {
			continue
		}
		size, ok := mutate.ParamNumber(m.Params[op.Size])
		if !ok {
			continue
		}
		rest := ""
		for k, v := range m.Params {
			if k != op.Size {
				rest += fmt.Sprintf("%s=%v;", k, v)
			}
		}
		k := site{m.Operator, m.Package, m.File, m.Function, rest, m.Line, m.Column}
		groups[k] = append(groups[k], sized{m.ID, size})
	}
	out := map[string]string{}
	for _, g := range groups {
		slices.SortFunc(g, func(a, b sized) int { return cmp.Or(cmp.Compare(a.size, b.size), cmp.Compare(a.id, b.id)) })
		for i := 1; i < len(g); i++ {
			if g[i].size > g[i-1].size {
				out[g[i].id] = g[i-1].id
			}
		}
	}
	return out
}

// waves orders the mutants todo (indexes into ms) so that every mutant
// comes in a later wave than its subsumer: wave k holds the mutants k
// steps above the smallest at their site. Mutants whose subsumer is not in
// todo (already done, or not in this run) are in wave 0.
func waves(ms []mutate.Mutant, todo []int, sub map[string]string) [][]int {
	depth := map[string]int{}
	in := map[string]bool{}
	for _, i := range todo {
		in[ms[i].ID] = true
	}
	var d func(id string) int
	d = func(id string) int {
		if v, ok := depth[id]; ok {
			return v
		}
		v := 0
		if s, ok := sub[id]; ok && in[s] {
			v = d(s) + 1
		}
		depth[id] = v
		return v
	}
	var out [][]int
	for _, i := range todo {
		k := d(ms[i].ID)
		for len(out) <= k {
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// inferred returns the result of m at level if its subsumer was killed
// there: killed, without measurement (m was built and passed its tests,
// like every mutant); nil otherwise.
func (r *run) inferred(m mutate.Mutant, level string) *report.LevelResult {
	s, ok := r.subsumer[m.ID]
	if !ok || !r.c.Infer {
		return nil
	}
	r.mu.Lock()
	lr := r.results[resultKey{s, level}]
	r.mu.Unlock()
	if lr == nil || lr.Status != score.Killed {
		return nil
	}
	return &report.LevelResult{
		Status:       score.Killed,
		Reason:       fmt.Sprintf("inferred from %s: the smaller injection at the same site was killed", s),
		InferredFrom: s,
		Benchmarks:   []score.TestResult{},
	}
}
