package runner

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// subsumers maps each mutant of a sized operator (mutate.Operator.Size) to
// the next smaller mutant of the same operator at the same site (same
// package, file, position and function, params equal but for the size):
// a kill of that one implies its own. The smallest sleep at a loop maps to
// a spin-loop at the same loop that costs far less per execution (see
// cheaperSpins). Mutants without one are absent.
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
		op := m.Op
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
	for id, spin := range cheaperSpins(ms) {
		if _, ok := out[id]; !ok {
			out[id] = spin
		}
	}
	return out
}

// sleepSpinMargin is how many times a sleep's duration must exceed a
// spin-loop's cost (its LoopCost without optimizations, the larger: Table
// III of docs/evaluation.md) at the same loop for a kill of the spin-loop
// to imply the sleep's. It covers an error in the spin's measured cost,
// and concurrency: a sleeping goroutine leaves its core to others, so when
// k goroutines run the loop at once the sleeps can overlap k-fold where
// spinning cannot.
const sleepSpinMargin = 16

// cheaperSpins maps each sleep mutant to the largest spin-loop mutant at
// the same loop (same package, file, function and position) whose cost per
// execution times SleepSpinMargin is at most the sleep's duration (both by
// the operators' LoopCost): every execution of the loop body then adds
// more wall time with the sleep than with the spin, on the same
// benchmarks, so a kill of the spin implies the sleep's. A spin is a
// mutant whose operator has a LoopCost of work (mutate.CostWork:
// spin-loop), a sleep one whose operator has a LoopCost of waiting
// (mutate.CostWait: sleep).
func cheaperSpins(ms []mutate.Mutant) map[string]string {
	type loop struct {
		pkg, file, fn string
		line, col     int
	}
	type spin struct {
		id string
		n  float64 // cost per execution, ns
	}
	spins := map[loop][]spin{}
	at := func(m mutate.Mutant) loop { return loop{m.Package, m.File, m.Function, m.Line, m.Column} }
	injects := func(m mutate.Mutant, cost mutate.Cost) bool {
		return m.Op != nil && m.Op.LoopCost != nil && m.Op.Cost == cost
	}
	for _, m := range ms {
		if !injects(m, mutate.CostWork) {
			continue
		}
		if cost, ok := m.Op.LoopCost(m.Params, false); ok {
			spins[at(m)] = append(spins[at(m)], spin{m.ID, cost})
		}
	}
	out := map[string]string{}
	for _, m := range ms {
		if !injects(m, mutate.CostWait) {
			continue
		}
		d, ok := m.Op.LoopCost(m.Params, true)
		if !ok {
			continue
		}
		best := spin{n: -1}
		for _, s := range spins[at(m)] {
			if s.n*sleepSpinMargin <= d && (s.n > best.n || s.n == best.n && s.id < best.id) {
				best = s
			}
		}
		if best.n >= 0 {
			out[m.ID] = best.id
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
// like every mutant); nil otherwise. c is the campaign (Infer, Mutants);
// result looks up a recorded result.
func (d *dedupState) inferred(c *Campaign, result func(resultKey) *results.LevelResult, m mutate.Mutant, level string) *results.LevelResult {
	s, ok := d.subsumer[m.ID]
	if !ok || !c.Infer {
		return nil
	}
	lr := result(resultKey{s, level})
	if lr == nil || lr.Status != score.Killed {
		return nil
	}
	why := "the smaller injection at the same site was killed"
	if i := slices.IndexFunc(c.Mutants, func(x mutate.Mutant) bool { return x.ID == s }); i >= 0 && c.Mutants[i].Operator != m.Operator {
		why = fmt.Sprintf("%s at the same loop was killed, and it costs at most a %dth of this %s per execution", c.Mutants[i].Description, sleepSpinMargin, m.Operator)
	}
	return &results.LevelResult{
		Status:       score.Killed,
		Reason:       fmt.Sprintf("inferred from %s: %s", s, why),
		InferredFrom: s,
		Benchmarks:   []score.TestResult{},
	}
}
