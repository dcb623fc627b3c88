package detect

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/mutate"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestNotes: one note per changed function in the map, in order; never,
// set-up only and a factor above the threshold warn, a factor at or below
// it does not; a function without a row gets no note.
func TestNotes(t *testing.T) {
	const m = "example.com/m"
	f := func(x float64) *float64 { return &x }
	mp := &Map{Functions: []Row{
		{Package: m, Function: "Unused", Status: Never},
		{Package: m, Function: "Prepare", Status: SetUp},
		{Package: m, Function: "Tiny", Status: Timed, Factor: f(6.2), AtLeast: true, Benchmark: m + ".BenchmarkA", Share: 0},
		{Package: m, Function: "Small", Status: Timed, Factor: f(3.5), Benchmark: m + ".BenchmarkA", Share: 0.04},
		{Package: m, Function: "(*T).Edge", Status: Timed, Factor: f(1.5), Benchmark: m + ".BenchmarkB", Share: 0.2},
		{Package: m, Function: "Half", Status: Timed, Factor: f(1.1), Benchmark: m + ".BenchmarkA", Share: 0.5},
	}}
	var changed []FuncID
	for _, n := range []string{"Half", "Unused", "Gone", "Prepare", "Small", "(*T).Edge", "Tiny"} {
		changed = append(changed, FuncID{m, n})
	}
	notes := Notes(mp, changed, 0)
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetIndent("", "  ")
	if err := e.Encode(notes); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "notes.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("notes differ from %s (go test -run TestNotes -update):\n%s", golden, buf.String())
	}
	if w := Notes(mp, changed[:1], 1.05); len(w) != 1 || !w[0].Warning {
		t.Errorf("threshold x1.05: Half's x1.1 should warn: %+v", w)
	}
}

// TestChangedFuncs: the functions whose declarations hold a changed line.
func TestChangedFuncs(t *testing.T) {
	dir, err := filepath.Abs("testdata/shares")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []*mutate.Package{{ImportPath: "example.com/shares", Name: "shares", Dir: dir, Files: []string{filepath.Join(dir, "work.go")}}}
	// Line 19 is Half's, 29 Small's, 1 the package comment.
	lines := map[string][]changes.Range{"work.go": {{Start: 1, End: 1}, {Start: 19, End: 19}, {Start: 29, End: 29}}, "other.go": {{Start: 1, End: 99}}}
	got, err := changedFuncs(pkgs, dir, lines)
	if err != nil {
		t.Fatal(err)
	}
	want := []FuncID{{"example.com/shares", "Half"}, {"example.com/shares", "Small"}}
	if !slices.Equal(got, want) {
		t.Errorf("ChangedFuncs = %v, want %v", got, want)
	}
}

// TestPositions: each function's file (module-relative) and first line.
func TestPositions(t *testing.T) {
	dir, err := filepath.Abs("testdata/shares")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []*mutate.Package{{ImportPath: "example.com/shares", Name: "shares", Dir: dir, Files: []string{filepath.Join(dir, "work.go")}}}
	got, err := Positions(pkgs, filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if p := got["example.com/shares.Half"]; p.File != "shares/work.go" || p.Line != 19 {
		t.Errorf("Positions[Half] = %+v, want shares/work.go:19", p)
	}
}

// TestWriteNotes: one line per changed function, warnings named so, under
// a header with the threshold; none changed says so.
func TestWriteNotes(t *testing.T) {
	var b strings.Builder
	notes := []Note{{Function: "m.F", Warning: true, Text: "m.F: no benchmark runs it: no slowdown of it would be noticed"},
		{Function: "m.G", Text: "m.G: a slowdown of x1.08 is caught by m.BenchmarkG (78.0% of its time)"}}
	if err := WriteNotes(&b, "origin/main", notes, 1.5); err != nil {
		t.Fatal(err)
	}
	want := "changed since origin/main: what notices each function slowing down (a warning: no benchmark times it, or its factor is above x1.5, -warn-factor):\n" +
		"  warning m.F: no benchmark runs it: no slowdown of it would be noticed\n" +
		"  note    m.G: a slowdown of x1.08 is caught by m.BenchmarkG (78.0% of its time)\n"
	if b.String() != want {
		t.Errorf("WriteNotes =\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteNotes(&b, "HEAD", nil, 0); err != nil || b.String() != "no function in scope changed since HEAD\n" {
		t.Errorf("no notes: %q, %v", b.String(), err)
	}
}
