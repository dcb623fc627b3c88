package operators

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

// TestCost is the decision, per operator, of what its change costs, and so
// which metric sees it: every operator of All has a row, its Cost is the
// row's, and docs/mutants.md's table ("What an instruction count sees")
// gives it the same Cost.
func TestCost(t *testing.T) {
	want := map[string]mutate.Cost{
		"loop-unbreaker":  mutate.CostWork,  // the loop runs its remaining iterations
		"oblivion":        mutate.CostWork,  // the call is recomputed
		"global-oblivion": mutate.CostWork,  // the value is recomputed at every use
		"cap-hint-drop":   mutate.CostAlloc, // growth copies and allocations (and B/op, allocs/op)
		"rlock-to-lock":   mutate.CostContention,
		"pool-bypass":     mutate.CostAlloc, // an allocation per Get (and B/op, allocs/op)
		"chan-unbuffer":   mutate.CostWait,  // every send blocks until its receiver comes
		"atomic-to-mutex": mutate.CostContention,
		"spin-loop":       mutate.CostWork,  // the spin is instructions
		"sleep":           mutate.CostWait,  // time.Sleep executes almost nothing
		"alloc-churn":     mutate.CostAlloc, // mallocgc, zeroing and the collector (and B/op, allocs/op)
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
	docs := docCosts(t)
	for _, op := range All {
		if c, ok := docs[op.Name]; !ok {
			t.Errorf("docs/mutants.md's Cost table has no row for %s", op.Name)
		} else if c != op.Cost.String() {
			t.Errorf("docs/mutants.md gives %s the Cost %s, the operator %s", op.Name, c, op.Cost)
		}
	}
	if len(docs) != len(All) {
		t.Errorf("docs/mutants.md's Cost table names %d operators, All has %d", len(docs), len(All))
	}
}

// docCosts reads the operator and Cost columns of docs/mutants.md's table
// "What an instruction count sees": "| `oblivion`, `global-oblivion` | work | why |".
func docCosts(t *testing.T) map[string]string {
	b, err := os.ReadFile(filepath.Join("..", "docs", "mutants.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "## What an instruction count sees")
	if !ok {
		t.Fatal(`docs/mutants.md has no section "What an instruction count sees"`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	name := regexp.MustCompile("`([a-z0-9-]+)`")
	out := map[string]string{}
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(line, "| `") {
			continue
		}
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			out[m[1]] = strings.TrimSpace(cells[2])
		}
	}
	return out
}

// TestSpinLoopCost: a spin-loop mutant adds its iterations and one call of
// the helper to every loop iteration (bench/q3overhead's BenchmarkSpinCall
// measures both), with optimizations and without.
func TestSpinLoopCost(t *testing.T) {
	for _, tc := range []struct {
		n         any
		optimized bool
		want      float64
	}{
		{10000, true, 7005},
		{10000, false, 14010},
		{1e6, true, 700005},
		{float64(1), false, 11.4},
	} {
		got, ok := SpinLoop.LoopCost(map[string]any{"iterations": tc.n}, tc.optimized)
		if !ok || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("LoopCost(%v iterations, optimized %v) = %v, %v; want %v", tc.n, tc.optimized, got, ok, tc.want)
		}
	}
	if _, ok := SpinLoop.LoopCost(map[string]any{}, true); ok {
		t.Errorf("LoopCost without iterations: ok, want not")
	}
}
