package runner

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

func TestCalibrationSites(t *testing.T) {
	m := func(q mutate.Quadrant, file string, line int) mutate.Mutant {
		return mutate.Mutant{Quadrant: q, Package: "p", File: file, Line: line, Column: 2}
	}
	ms := []mutate.Mutant{
		m(mutate.Q4, "a.go", 1), m(mutate.Q3, "a.go", 5), m(mutate.Q3, "a.go", 5), // same site twice
		m(mutate.Q4, "b.go", 9), m(mutate.Q3, "b.go", 3),
	}
	got := calibrationSites(ms, 7, 1, nil)
	if len(got) != 7 {
		t.Fatalf("%d sites, want 7", len(got))
	}
	// 4 distinct sites, the two Q3 ones first, then repeating.
	q3 := map[int]bool{5: true, 3: true}
	if !q3[got[0].Line] || !q3[got[1].Line] || got[0] == got[1] || q3[got[2].Line] || q3[got[3].Line] {
		t.Errorf("sites %v: want the 2 Q3 sites first", got)
	}
	for i := 4; i < 7; i++ {
		if got[i] != got[i-4] {
			t.Errorf("site %d = %v, want a repeat of %v", i, got[i], got[i-4])
		}
	}
	if again := calibrationSites(ms, 7, 1, nil); !equalSites(again, got) {
		t.Errorf("same seed, different sites")
	}
	if calibrationSites(nil, 3, 1, nil) != nil {
		t.Errorf("sites without mutants")
	}
	// Only the sites keep accepts; all of them when it accepts none.
	onlyB := calibrationSites(ms, 3, 1, func(s calibrationSite) bool { return s.File == "b.go" })
	for _, s := range onlyB {
		if s.File != "b.go" {
			t.Errorf("site %v not kept", s)
		}
	}
	if none := calibrationSites(ms, 4, 1, func(calibrationSite) bool { return false }); !equalSites(none, got[:4]) {
		t.Errorf("keep rejecting every site: got %v, want all sites %v", none, got[:4])
	}
}

func equalSites(a, b []calibrationSite) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNullHelperParses(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		src := nullHelper("text", i)
		if _, err := parser.ParseFile(token.NewFileSet(), nullFile, src, 0); err != nil {
			t.Fatalf("null helper %d does not parse: %v\n%s", i, err, src)
		}
		seen[src] = true
	}
	if len(seen) != 20 {
		t.Errorf("null helpers repeat: %d distinct of 20", len(seen))
	}
}

func TestAtFirstEdit(t *testing.T) {
	root := t.TempDir()
	src := "package p\n\nfunc f(xs []int) {\n\tfor _, x := range xs {\n\t\t_ = x\n\t}\n}\n"
	os.WriteFile(filepath.Join(root, "p.go"), []byte(src), 0o644)
	body := strings.Index(src, "_ = x")
	ms := atFirstEdit(root, []mutate.Mutant{
		{File: "p.go", Line: 4, Column: 2, Edits: []mutate.Edit{{Start: body + 5, End: body + 5}, {Start: body, End: body}}},
		{File: "p.go", Line: 4, Column: 2},
	})
	if ms[0].Line != 5 || ms[0].Column != 3 {
		t.Errorf("first edit at %d:%d, want 5:3", ms[0].Line, ms[0].Column)
	}
	if ms[1].Line != 4 || ms[1].Column != 2 {
		t.Errorf("a mutant without edits moved to %d:%d", ms[1].Line, ms[1].Column)
	}
}
