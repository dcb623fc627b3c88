package attrib

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/perfmut/perfmut/results"
)

// TestSignInterval: the order statistics of the sign test's 95%
// interval, as score.PairedRatio takes them: none below 6 values; 6: the
// extremes; 10: the 2nd to the 9th; 20: the 6th to the 15th; 30: the 10th
// to the 21st.
func TestSignInterval(t *testing.T) {
	for _, tc := range []struct{ n, lo, hi int }{{1, 0, 0}, {5, 0, 0}, {6, 1, 6}, {10, 2, 9}, {20, 6, 15}, {30, 10, 21}} {
		xs := make([]float64, tc.n)
		for i := range xs {
			xs[i] = float64(tc.n - i) // descending: the interval sorts
		}
		lo, hi := signInterval(xs)
		if lo != float64(tc.lo) || hi != float64(tc.hi) {
			t.Errorf("n=%d: [%v, %v], want [%d, %d]", tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// charges builds Charges with Self values and Callees.
func charges(self map[string]float64, callees map[string][]string) Charges {
	c := Charges{Self: self, Cum: map[string]float64{}, Callees: map[string]map[string]bool{}}
	for k, v := range self {
		c.Total += v
		c.Cum[k] += v
	}
	for k, cs := range callees {
		c.Callees[k] = map[string]bool{}
		for _, x := range cs {
			c.Callees[k][x] = true
		}
	}
	return c
}

// TestRank: functions ranked by how much their value per op moved in the
// direction of the change, with shares of the total difference, the
// changed lines and the changed functions they call; functions that
// moved the other way are left out.
func TestRank(t *testing.T) {
	var rounds []Round
	for i := range 6 {
		e := float64(i) // the rounds differ a little
		rounds = append(rounds, Round{
			Old: charges(map[string]float64{"m/p.F": 100, "m/p.G": 300 + e, "m/p.H": 50, "runtime.gcBgMarkWorker": 10}, nil),
			New: charges(map[string]float64{"m/p.F": 140 + e, "m/p.G": 900, "m/p.H": 40, "runtime.gcBgMarkWorker": 20},
				map[string][]string{"m/p.F": {"m/p.G"}}),
		})
	}
	changed := map[string]string{"m/p.G": "p/g.go:10-12", "m/p.B": "p/p_test.go:5"}
	for _, r := range rounds { // the changed benchmark B calls F
		r.New.Callees["m/p.B"] = map[string]bool{"m/p.F": true, "m/p.G": true}
	}
	m := Rank(results.AttribMetric{Metric: "sec/op", Unit: "ns/op", Verdict: "slower", Ratio: 2.3}, rounds, Options{N: 10, Dir: 1, Top: 3, Changed: changed})
	// Totals per op: OLD (460+e)/10, NEW (1100+e)/10 for e = 0..5: 64
	// more in every round.
	if got := fmt.Sprintf("%.4g -> %.4g, %.4g [%.4g, %.4g]", m.Old, m.New, m.Delta, m.DeltaLo, m.DeltaHi); got != "46.25 -> 110.2, 64 [64, 64]" {
		t.Errorf("totals %s, want 46.25 -> 110.2, 64 [64, 64]", got)
	}
	var got []string
	for _, f := range m.Functions {
		got = append(got, fmt.Sprintf("%s %.4g [%.4g, %.4g] %.3g %q %v %v", f.Function, f.Delta, f.DeltaLo, f.DeltaHi, f.Share, f.Changed, f.Calls, f.CalledBy))
	}
	want := []string{
		`m/p.G 59.75 [59.5, 60] 0.934 "p/g.go:10-12" [] [m/p.B]`,
		`m/p.F 4.25 [4, 4.5] 0.0664 "" [m/p.G] [m/p.B]`,
		`runtime.gcBgMarkWorker 1 [1, 1] 0.0156 "" [] []`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("functions\n%q\nwant\n%q", got, want)
	}
	// Outside the module: the garbage collector's worker comes after
	// every function of the module, however large its move.
	inModule := func(k string) bool { return strings.HasPrefix(k, "m/") }
	for i := range rounds {
		rounds[i].New.Self["runtime.gcBgMarkWorker"] += 5000
	}
	m = Rank(results.AttribMetric{}, rounds, Options{N: 10, Dir: 1, Top: 1, InModule: inModule})
	if len(m.Functions) != 2 || m.Functions[0].Function != "m/p.G" || m.Functions[1].Function != "runtime.gcBgMarkWorker" || !m.Functions[1].Outside || m.Functions[0].Outside {
		t.Errorf("with a function outside the module: %+v", m.Functions)
	}
	for i := range rounds {
		rounds[i].New.Self["runtime.gcBgMarkWorker"] -= 5000
	}
	// Faster: the same rounds the other way round rank H first, the only
	// function that got cheaper.
	for i := range rounds {
		rounds[i].Old, rounds[i].New = rounds[i].New, rounds[i].Old
	}
	m = Rank(results.AttribMetric{Metric: "sec/op"}, rounds, Options{N: 10, Dir: -1})
	if len(m.Functions) != 3 || m.Functions[0].Function != "m/p.G" || m.Functions[2].Function != "runtime.gcBgMarkWorker" {
		t.Errorf("faster: %+v", m.Functions)
	}
	m = Rank(results.AttribMetric{Metric: "sec/op"}, rounds, Options{N: 10, Dir: 1})
	if len(m.Functions) != 1 || m.Functions[0].Function != "m/p.H" || m.Functions[0].Delta != 1 {
		t.Errorf("slower of the swapped rounds: %+v, want m/p.H alone, +1", m.Functions)
	}
}

// TestRankRecorded: real profiles of the demo's BenchmarkGet, 6 rounds
// each: a spin loop added to (*LRU).Get (about 100 ns/op on the CPU)
// and a 64-byte allocation added to it are both attributed to Get, the
// changed function, as most of the difference.
func TestRankRecorded(t *testing.T) {
	changed := map[string]string{"example.com/demo/cache.(*LRU).Get": "cache/lru.go:40-44"}
	for _, tc := range []struct {
		old, new, typ string
		lo, hi        float64 // the difference per op Get must take
	}{
		{"old-%d.cpu", "spin-%d.cpu", "cpu", 50, 400},
		{"old-%d.mem", "alloc-%d.mem", "alloc_space", 48, 80},
		{"old-%d.mem", "alloc-%d.mem", "alloc_objects", 0.75, 1.25},
	} {
		var op, np []string
		for r := 1; r <= 6; r++ {
			op, np = append(op, "testdata/get/"+fmt.Sprintf(tc.old, r)), append(np, "testdata/get/"+fmt.Sprintf(tc.new, r))
		}
		old, err := Read(op)
		if err != nil {
			t.Fatal(err)
		}
		nw, err := Read(np)
		if err != nil {
			t.Fatal(err)
		}
		rounds, err := Rounds(old, nw, tc.typ, moduleKeyer)
		if err != nil {
			t.Fatal(err)
		}
		m := Rank(results.AttribMetric{}, rounds, Options{N: 400000, Dir: 1, Changed: changed})
		if len(m.Functions) == 0 {
			t.Fatalf("%s %s: no function", tc.new, tc.typ)
		}
		f := m.Functions[0]
		if f.Function != "example.com/demo/cache.(*LRU).Get" || f.Changed == "" || f.Delta < tc.lo || f.Delta > tc.hi || f.Share < 0.5 {
			t.Errorf("%s %s: top %+v; want (*LRU).Get, changed, %v to %v per op, most of the total %v", tc.new, tc.typ, f, tc.lo, tc.hi, m.Delta)
		}
	}
}

// TestRankChangedCaller: the time an unchanged function spends when a
// changed function calls it counts for the changed function (an
// oblivion mutant of Tokenize that calls isSeparator again: the extra
// time is isSeparator's own, the change Tokenize's), the innermost
// changed function on the stack when there are several; time under no
// changed function stays where it is, and a changed benchmark function
// takes nothing from what it calls.
func TestRankChangedCaller(t *testing.T) {
	const tok, sep, lower, bench = "example.com/m/text.Tokenize", "example.com/m/text.isSeparator", "example.com/m/text.Lower", "example.com/m/text.BenchmarkTokenize"
	changed := map[string]string{tok: "text/tok.go:12", bench: "text/tok_test.go:30"}
	var rounds []Round
	for i := range 6 {
		e := int64(i)
		stacks := func(sepUnderTok, sepAlone int64) *profile.Profile {
			return synthetic([][]string{
				{tok, bench, "runtime.goexit"},
				{"unicode.IsSpace", sep, tok, bench},
				{sep, lower, bench},
				{lower, bench},
			}, []int64{100 + e, sepUnderTok, sepAlone, 50})
		}
		old, err := Charge(stacks(200, 30), "cpu", moduleKeyer)
		if err != nil {
			t.Fatal(err)
		}
		nw, err := Charge(stacks(500+e, 60), "cpu", moduleKeyer)
		if err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, Round{Old: old, New: nw, N: 1})
	}
	m := Rank(results.AttribMetric{}, rounds, Options{Dir: 1, Changed: changed})
	var got []string
	for _, f := range m.Functions {
		got = append(got, fmt.Sprintf("%s %.4g -> %.4g", Short(f.Function), f.Old, f.New))
	}
	want := []string{"text.Tokenize 302.5 -> 605", "text.isSeparator 30 -> 60"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("functions %q, want %q", got, want)
	}
	// Without the changed lines, the time stays with the function it is
	// spent in.
	m = Rank(results.AttribMetric{}, rounds, Options{Dir: 1})
	if len(m.Functions) == 0 || m.Functions[0].Function != sep || m.Functions[0].Delta != 332.5 {
		t.Errorf("without changed functions: %+v, want isSeparator +332.5 first", m.Functions)
	}
}
