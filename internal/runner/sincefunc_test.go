package runner

import (
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
)

// TestFuncReuse: after F's body changed, a result in A is reused unless a
// benchmark or test that judges it runs F: BenchmarkX runs F only in its
// setup but A in its timed loop, so it judges A's mutants; BenchmarkY and
// TestA do not run F. A measured verdict is judged by the benchmarks that
// measured it, or by one that killed it; an inert mutant by no test.
func TestFuncReuse(t *testing.T) {
	const p = "example.com/m"
	code := func(f string) map[string]results.PackageCode {
		return map[string]results.PackageCode{p: {Rest: "r", Covered: true, Funcs: map[string]string{p + " f.go:A": "a", p + " f.go:F": f}}}
	}
	reach := map[string][]string{
		p + " BenchmarkX": {p + " f.go:A", p + " f.go:F"},
		p + " BenchmarkY": {p + " f.go:A"},
		p + " TestA":      {p + " f.go:A"},
		p + " TestAF":     {p + " f.go:A", p + " f.go:F"},
	}
	timed := map[string][]string{p + " BenchmarkX": {p + " f.go:A"}, p + " BenchmarkY": {p + " f.go:A"}}
	prev := &results.Inputs{Packages: map[string]string{p: "1"}, Code: code("f1"), Reach: reach, Timed: timed}
	cur := &results.Inputs{Packages: map[string]string{p: "2"}, Code: code("f2"), Reach: reach, Timed: timed}
	fr := newFuncReuse(prev, cur)
	lr := &results.LevelResult{Judges: []string{p}}
	known := func(string) bool { return false }
	for _, c := range []struct {
		name       string
		fn         string
		untested   bool
		measuredBy []string
		killedBy   []string
		want       bool
	}{
		{"changed function", p + " f.go:F", true, nil, nil, false},
		{"unknown function", "", true, nil, nil, false},
		{"not measured: BenchmarkX's loop runs A", p + " f.go:A", true, nil, nil, false},
		{"measured by BenchmarkY", p + " f.go:A", true, []string{p + " BenchmarkY"}, nil, true},
		{"measured by BenchmarkX", p + " f.go:A", true, []string{p + " BenchmarkX", p + " BenchmarkY"}, nil, false},
		{"measured by BenchmarkY, tested by TestAF", p + " f.go:A", false, []string{p + " BenchmarkY"}, nil, false},
		// A kill by a benchmark that runs no changed function holds
		// whatever the others would say now; one by a benchmark that runs
		// F, or that no longer exists, does not.
		{"killed by BenchmarkY, measured by BenchmarkX too", p + " f.go:A", true, []string{p + " BenchmarkX", p + " BenchmarkY"}, []string{p + " BenchmarkY"}, true},
		{"killed by BenchmarkX", p + " f.go:A", true, []string{p + " BenchmarkX", p + " BenchmarkY"}, []string{p + " BenchmarkX"}, false},
		{"killed by a removed benchmark", p + " f.go:A", true, []string{p + " BenchmarkX", p + " BenchmarkZ"}, []string{p + " BenchmarkZ"}, false},
		{"killed by BenchmarkY, tested by TestAF", p + " f.go:A", false, []string{p + " BenchmarkX", p + " BenchmarkY"}, []string{p + " BenchmarkY"}, false},
	} {
		if got := fr.holds(p, c.fn, c.untested, lr, known, c.measuredBy, c.killedBy); got != c.want {
			t.Errorf("%s: holds = %v, want %v", c.name, got, c.want)
		}
	}
	// Tests not covered one by one: a tested mutant's result cannot be
	// checked.
	if fr.holds(p, p+" f.go:A", false, lr, func(string) bool { return true }, []string{p + " BenchmarkY"}, nil) {
		t.Error("unknown test coverage: holds = true, want false")
	}
}

// TestSplitFuncs: a change inside a body changes that function's hash
// only; a change between functions changes the rest.
func TestSplitFuncs(t *testing.T) {
	const src = "package m\n\n// A doc.\nfunc A() int { return 1 }\n\nfunc (t *T[K]) B() {}\n\nfunc init() {}\n\nfunc init() {}\n"
	split := func(s string) (string, map[string]string) {
		funcs := map[string]string{}
		rest, _ := splitFuncs("m", "f.go", []byte(s), funcs)
		return string(rest), funcs
	}
	rest, funcs := split(src)
	if want := "package m\n\n// A doc.\nfunc A() int {}\n\nfunc (t *T[K]) B() {}\n\nfunc init() {}\n\nfunc init() {}\n"; rest != want {
		t.Errorf("rest = %q, want %q", rest, want)
	}
	for _, k := range []string{"m f.go:A", "m f.go:(*T).B", "m f.go:init", "m f.go:init#2"} {
		if funcs[k] == "" {
			t.Errorf("no hash for %s in %v", k, funcs)
		}
	}
	rest2, funcs2 := split(strings.Replace(src, "return 1", "return 2", 1))
	if rest2 != rest || funcs2["m f.go:A"] == funcs["m f.go:A"] || funcs2["m f.go:(*T).B"] != funcs["m f.go:(*T).B"] {
		t.Errorf("body change: rest changed %v, A's hash changed %v, B's unchanged %v", rest2 != rest,
			funcs2["m f.go:A"] != funcs["m f.go:A"], funcs2["m f.go:(*T).B"] == funcs["m f.go:(*T).B"])
	}
	if rest3, _ := split(strings.Replace(src, "// A doc.", "// A's doc.", 1)); rest3 == rest {
		t.Error("a changed comment outside the bodies left the rest unchanged")
	}
}
