package operators

import (
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

// TestCost is the decision, per operator, of what its change costs, and so
// which metric sees it (docs/mutants.md, "What an instruction count sees"):
// every operator of All has a row, and its Cost is the row's.
func TestCost(t *testing.T) {
	want := map[string]mutate.Cost{
		"loop-unbreaker":  mutate.CostWork, // the loop runs its remaining iterations
		"oblivion":        mutate.CostWork, // the call is recomputed
		"global-oblivion": mutate.CostWork, // the value is recomputed at every use
		"cap-hint-drop":   mutate.CostWork, // growth copies and allocations (and B/op, allocs/op)
		"rlock-to-lock":   mutate.CostContention,
		"pool-bypass":     mutate.CostWork, // an allocation per Get (and B/op, allocs/op)
		"chan-unbuffer":   mutate.CostWait, // every send blocks until its receiver comes
		"atomic-to-mutex": mutate.CostContention,
		"spin-loop":       mutate.CostWork, // the spin is instructions
		"sleep":           mutate.CostWait, // time.Sleep executes almost nothing
		"alloc-churn":     mutate.CostWork, // mallocgc and zeroing (and B/op, allocs/op)
		"lock-contention": mutate.CostContention,
		"critical-spin":   mutate.CostContention,
		"tail-spike":      mutate.CostWait, // a sleep every k-th execution
		"call-replace":    mutate.CostWork, // the slow path's instructions
		"var-replace":     mutate.CostWork, // the slow path's instructions
	}
	if len(want) != len(All) {
		t.Errorf("the table has %d operators, All %d: give every operator a row", len(want), len(All))
	}
	for _, op := range All {
		c, ok := want[op.Name]
		switch {
		case !ok:
			t.Errorf("operator %s has no row in the table", op.Name)
		case op.Cost != c:
			t.Errorf("operator %s: Cost %s, want %s", op.Name, op.Cost, c)
		}
	}
}
