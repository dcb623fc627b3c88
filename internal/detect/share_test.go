package detect

import (
	"math"
	"testing"

	"github.com/google/pprof/profile"
)

// synth builds a CPU profile whose samples have these stacks (function
// names, innermost first, one location each) and counts.
func synth(stacks [][]string, counts []int64) *profile.Profile {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}}}
	fns := map[string]*profile.Function{}
	fn := func(name string) *profile.Function {
		if f, ok := fns[name]; ok {
			return f
		}
		f := &profile.Function{ID: uint64(len(fns) + 1), Name: name}
		fns[name] = f
		p.Function = append(p.Function, f)
		return f
	}
	for i, st := range stacks {
		s := &profile.Sample{Value: []int64{counts[i]}}
		for _, name := range st {
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn(name)}}}
			p.Location = append(p.Location, loc)
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

func TestClassifyCount(t *testing.T) {
	const m = "example.com/m"
	prof := synth([][]string{
		{m + ".spin", m + ".Half", m + ".BenchmarkX", "testing.(*B).runN"},
		{m + ".Half.func1", m + ".Half", m + ".BenchmarkX", "testing.(*B).runN"},
		{"runtime.memmove", m + ".(*T[...]).Small", m + ".BenchmarkX", "testing.(*B).runN"},
		{m + ".spin", m + ".Prepare", m + ".BenchmarkX", "testing.(*B).runN"},
		{m + ".rec", m + ".rec", m + ".BenchmarkX", "testing.(*B).runN"},
		{"runtime.gcBgMarkWorker"},
		{m + ".Half", m + "_test.BenchmarkOther", "testing.(*B).runN"},
	}, []int64{40, 10, 1, 500, 9, 300, 77})
	c := classify{
		IsBench: func(s string) bool { return s == m+".BenchmarkX" },
		KeyOf:   KeyOf([]string{m}),
		SetUp:   func(k string) bool { return k == m+".Prepare" },
	}
	got := c.Count(prof)
	want := Shares{Total: 60, Funcs: map[string]Count{
		m + ".spin":       {Flat: 40, Cum: 40},
		m + ".Half":       {Flat: 10, Cum: 50}, // its closure's samples are its own
		m + ".(*T).Small": {Flat: 0, Cum: 1},
		m + ".rec":        {Flat: 9, Cum: 9}, // recursion counts once
		m + ".BenchmarkX": {Flat: 0, Cum: 60},
	}}
	if got.Total != want.Total || len(got.Funcs) != len(want.Funcs) {
		t.Fatalf("Count = %+v, want %+v", got, want)
	}
	for k, w := range want.Funcs {
		if got.Funcs[k] != w {
			t.Errorf("%s: %+v, want %+v", k, got.Funcs[k], w)
		}
	}
}

func TestKeyOf(t *testing.T) {
	key := KeyOf([]string{"example.com/m", "example.com/m/sub"})
	for in, want := range map[string]string{
		"example.com/m.Lower":             "example.com/m.Lower",
		"example.com/m.(*T).M":            "example.com/m.(*T).M",
		"example.com/m.(*T[...]).M.func2": "example.com/m.(*T).M",
		"example.com/m.T.M":               "example.com/m.T.M",
		"example.com/m.F.func1.3":         "example.com/m.F",
		"example.com/m.Map[...]":          "example.com/m.Map",
		"example.com/m.init.0":            "example.com/m.init",
		"example.com/m/sub.G":             "example.com/m/sub.G",
		"example.com/m.F.gowrap1":         "example.com/m.F",
		"example.com/mother.F":            "",
		"runtime.mallocgc":                "",
		"example.com/m/other.H":           "",
	} {
		if got := key(in); got != want {
			t.Errorf("KeyOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWilson(t *testing.T) {
	// Values from the closed form (z = 1.959964): p = 0.5, n = 100 ->
	// [0.403832, 0.596168]; k = 0 of n = 100 -> [0, z^2/(n+z^2)].
	for _, tt := range []struct {
		k, n   int64
		lo, hi float64
	}{{50, 100, 0.403832, 0.596168}, {0, 100, 0, 0.036993}, {100, 100, 0.963007, 1}, {0, 0, 0, 1}} {
		lo, hi := wilson(tt.k, tt.n)
		if math.Abs(lo-tt.lo) > 1e-6 || math.Abs(hi-tt.hi) > 1e-6 {
			t.Errorf("Wilson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
	// No sample in the function: the lower end is exactly 0, so the
	// factor's upper end is unbounded (not 1e16 from a rounding error).
	for _, n := range []int64{28, 71, 254, 1000} {
		if lo, _ := wilson(0, n); lo != 0 {
			t.Errorf("Wilson(0, %d) lower end = %g, want exactly 0", n, lo)
		}
		if _, hi := wilson(n, n); hi != 1 {
			t.Errorf("Wilson(%d, %d) upper end = %g, want exactly 1", n, n, hi)
		}
	}
}

func TestBenchFrame(t *testing.T) {
	is := benchFrame("example.com/m", "BenchmarkX")
	for name, want := range map[string]bool{
		"example.com/m.BenchmarkX":        true,
		"example.com/m_test.BenchmarkX":   true,
		"example.com/m.BenchmarkX.func1":  true, // a b.RunParallel body
		"example.com/m.BenchmarkXY":       false,
		"example.com/m.BenchmarkX2.func1": false,
		"example.com/other.BenchmarkX":    false,
	} {
		if got := is(name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}

func TestSharesAdd(t *testing.T) {
	var s Shares
	s.Add(Shares{Total: 10, Funcs: map[string]Count{"f": {1, 4}}})
	s.Add(Shares{Total: 5, Funcs: map[string]Count{"f": {2, 3}, "g": {0, 5}}})
	if s.Total != 15 || s.Funcs["f"] != (Count{3, 7}) || s.Funcs["g"] != (Count{0, 5}) || len(s.Funcs) != 2 {
		t.Errorf("Add: %+v", s)
	}
}

// TestClassifyInlined: a location holding inlined frames counts for each
// of them; the innermost line is the flat one.
func TestClassifyInlined(t *testing.T) {
	const m = "example.com/m"
	fn := func(id uint64, name string) *profile.Function { return &profile.Function{ID: id, Name: name} }
	leaf, caller, bench := fn(1, m+".leaf"), fn(2, m+".Caller"), fn(3, m+".BenchmarkX")
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: leaf}, {Function: caller}, {Function: bench}}}
	p := &profile.Profile{Function: []*profile.Function{leaf, caller, bench}, Location: []*profile.Location{loc},
		Sample: []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{7}}}}
	got := classify{IsBench: func(s string) bool { return s == m+".BenchmarkX" }, KeyOf: KeyOf([]string{m})}.Count(p)
	if got.Total != 7 || got.Funcs[m+".leaf"] != (Count{7, 7}) || got.Funcs[m+".Caller"] != (Count{0, 7}) {
		t.Errorf("Count = %+v", got)
	}
}
