package behave

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/perfmut/perfmut/internal/attrib"
)

// TestFeatures: shares of the CPU time by function, stack and the
// garbage collector, and of the allocated bytes by function.
func TestFeatures(t *testing.T) {
	cpu := attrib.Charges{Total: 200, Self: map[string]float64{"m.F": 150, "runtime.gcBgMarkWorker": 50},
		Stacks: map[string]float64{"m.B > m.F": 150, "": 50}, GC: 60}
	alloc := attrib.Charges{Total: 64, Self: map[string]float64{"m.F": 64}}
	want := map[string]float64{"cpu m.F": 0.75, "cpu runtime.gcBgMarkWorker": 0.25, "stack m.B > m.F": 0.75, "gc": 0.3, "alloc m.F": 1}
	if got := Features(cpu, alloc); !reflect.DeepEqual(got, want) {
		t.Errorf("Features = %v, want %v", got, want)
	}
	if got := Features(attrib.Charges{}, attrib.Charges{}); len(got) != 0 {
		t.Errorf("Features of empty profiles = %v", got)
	}
}

// rounds makes n rounds of the shares of two functions f and g from
// samples CPU samples each, g's share p.
func rounds(rng *rand.Rand, n, samples int, p float64) []map[string]float64 {
	var out []map[string]float64
	for range n {
		g := 0
		for range samples {
			if rng.Float64() < p {
				g++
			}
		}
		out = append(out, map[string]float64{"cpu m.f": float64(samples-g) / float64(samples), "cpu m.g": float64(g) / float64(samples)})
	}
	return out
}

// TestCompare: the time moved from f to g (a quarter to three quarters)
// differs in both features, largest move first, with the exact p of 6
// rounds against 6 wholly apart (2/924); a move below MinMove does not,
// however significant.
func TestCompare(t *testing.T) {
	a := []map[string]float64{}
	b := []map[string]float64{}
	for i := range 6 {
		e := float64(i) / 100
		a = append(a, map[string]float64{"cpu m.f": 0.75 + e, "cpu m.g": 0.25 - e})
		b = append(b, map[string]float64{"cpu m.f": 0.25 + e, "cpu m.g": 0.75 - e, "cpu m.h": 0.01})
	}
	got := Compare(a, b, 0.05)
	var s []string
	for _, d := range got {
		s = append(s, fmt.Sprintf("%s %.3g->%.3g p=%.4g", d.Feature, d.Old, d.New, d.P))
	}
	want := []string{"cpu m.f 0.775->0.275 p=0.002165", "cpu m.g 0.225->0.725 p=0.002165"}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Compare = %q, want %q", s, want)
	}
	for i := range b {
		b[i] = map[string]float64{"cpu m.f": a[i]["cpu m.f"] - 0.04, "cpu m.g": a[i]["cpu m.g"] + 0.04}
	}
	if got := Compare(a, b, 0.05); len(got) != 0 {
		t.Errorf("a move of 4 points: %v", got)
	}
}

// TestCompareFalseAlarms simulates A/A pairs of 6 rounds of 20 CPU
// samples (the fewest a profiled round aims at) split between two
// functions, at several shares: Compare must find a difference in at
// most alpha of them.
func TestCompareFalseAlarms(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const trials, alpha = 2000, 0.05
	for _, p := range []float64{0.1, 0.3, 0.5} {
		alarms := 0
		for range trials {
			if len(Compare(rounds(rng, 6, 20, p), rounds(rng, 6, 20, p), alpha)) > 0 {
				alarms++
			}
		}
		rate := float64(alarms) / trials
		t.Logf("share %v: %d false alarms in %d A/A pairs", p, alarms, trials)
		if rate > alpha {
			t.Errorf("share %v: false alarms in %.3f of %d A/A pairs, above alpha %v", p, rate, trials, alpha)
		}
	}
}

// TestLearnJudge: recorded behaviours of two kinds form two clusters in
// the order they come. NEW like this run's OLD did not change; NEW of the
// other kind changed when OLD never showed that kind (the differences
// name f and g), and did not when one of OLD's clusters holds it.
func TestLearnJudge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var es []Entry
	for i := range 4 {
		p := 0.2
		if i%2 == 1 {
			p = 0.8
		}
		es = append(es, Entry{Commit: fmt.Sprint("c", i), Rounds: rounds(rng, 6, 40, p)})
	}
	cs := Learn(es, 0.05)
	if len(cs) != 2 || !reflect.DeepEqual(cs[0].Commits, []string{"c0", "c2"}) || !reflect.DeepEqual(cs[1].Commits, []string{"c1", "c3"}) || len(cs[0].Rounds) != 12 {
		t.Fatalf("clusters %+v", cs)
	}
	old := rounds(rng, 6, 40, 0.2)
	if d, changed := Judge(cs, "c2", old, rounds(rng, 6, 40, 0.2), 0.05); changed || d != nil {
		t.Errorf("NEW like OLD: changed %v, %v", changed, d)
	}
	d, changed := Judge(cs, "c2", old, rounds(rng, 6, 40, 0.8), 0.05)
	if !changed || len(d) != 2 || d[0].Feature == d[1].Feature {
		t.Errorf("NEW of the other kind: changed %v, %v; want f and g", changed, d)
	}
	cs[1].Commits = append(cs[1].Commits, "c2") // OLD has shown both kinds
	if d, changed := Judge(cs, "c2", old, rounds(rng, 6, 40, 0.8), 0.05); changed || d != nil {
		t.Errorf("NEW of a kind OLD has shown: changed %v, %v", changed, d)
	}
}
