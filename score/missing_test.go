package score

import (
	"reflect"
	"testing"
)

// TestMissingRounds: a sample that misses rounds counts them (Rounds), is
// cut by rounds for an earlier look (prefix), and the rule takes a look at
// the rounds' count, once: at 10 rounds with 9 values, not again at 11.
func TestMissingRounds(t *testing.T) {
	seq := steps
	s := Sample{Benchmark: "B", Metric: "p99-ns/op", Baseline: seq(100, 9), Mutant: seq(500, 9), Missing: []int{2}}
	if s.Rounds() != 10 {
		t.Errorf("Rounds = %d, want 10", s.Rounds())
	}
	for _, c := range []struct {
		n       int
		values  int
		missing []int
	}{{2, 2, []int{}}, {3, 2, []int{2}}, {5, 4, []int{2}}, {10, 9, []int{2}}} {
		p := s.prefix(c.n)
		if len(p.Baseline) != c.values || len(p.Mutant) != c.values || !reflect.DeepEqual(p.Missing, c.missing) {
			t.Errorf("prefix(%d): %d and %d values, missing %v; want %d, missing %v", c.n, len(p.Baseline), len(p.Mutant), p.Missing, c.values, c.missing)
		}
	}
	r := Rule{Seed: 1, FutilityPower: NoFutility}
	time := Sample{Benchmark: "B", Metric: SecPerOp, Baseline: seq(1, 10), Mutant: seq(1.5, 10)}
	v := r.Decide([]Sample{time, s})
	if v.Look != 2 || v.Decision != Kill || v.Tests[1].P != 1.0/48620 || !v.Tests[1].Reject {
		t.Errorf("10 rounds: look %d, %s, p %v; want look 2, kill on p99-ns/op at p = 1/C(18, 9)", v.Look, v.Decision, v.Tests[1].P)
	}
	time.Baseline, time.Mutant = seq(1, 11), seq(1.5, 11)
	s.Baseline, s.Mutant = seq(100, 10), seq(500, 10)
	if v := r.Decide([]Sample{time, s}); v.Look != 0 || v.Decision != Continue {
		t.Errorf("11 rounds: look %d, %s; want no look (continue)", v.Look, v.Decision)
	}
}

// steps returns from, from+1, ..., n values.
func steps(from float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = from + float64(i)
	}
	return out
}
