package mutate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

// TestIDsStableAllOperators edits one function of a copy of the demo's
// text package and checks, with every operator, that the mutants of the
// other functions keep their IDs and that all of them stay unique.
func TestIDsStableAllOperators(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/demo")); err != nil {
		t.Fatal(err)
	}
	gen := func() map[string]mutate.Mutant {
		p, err := mutate.Load(context.Background(), mutate.Options{Dir: dir, Config: config.Default(), Operators: operators.All})
		if err != nil {
			t.Fatal(err)
		}
		ms, err := p.Generate()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]mutate.Mutant{}
		for _, m := range ms {
			if _, dup := out[m.ID]; dup {
				t.Fatalf("duplicate ID %s", m.ID)
			}
			out[m.ID] = m
		}
		return out
	}
	before := gen()
	path := filepath.Join(dir, "text", "text.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Shift every line with a new declaration at the top and rewrite Count.
	edited := strings.Replace(string(src), "// wordRE matches one word.", "// Version is new.\nconst Version = 2\n\n// wordRE matches one word.", 1)
	edited = strings.Replace(edited, "counts[Lower(w)]++", "counts[Lower(w)] += 1", 1)
	if edited == string(src) {
		t.Fatal("the edit did not apply")
	}
	if err := os.WriteFile(path, []byte(edited), 0o666); err != nil {
		t.Fatal(err)
	}
	after := gen()
	kept, moved := 0, 0
	for id, m := range before {
		if m.File == "text/text.go" && m.Function == "Count" {
			continue
		}
		a, ok := after[id]
		if !ok {
			t.Errorf("%s %s %s:%d (%s) lost its ID", id, m.Operator, m.File, m.Line, m.Function)
			continue
		}
		kept++
		if m.File == "text/text.go" {
			if a.Line != m.Line+3 {
				t.Errorf("%s: line %d -> %d, want +3", id, m.Line, a.Line)
			}
			moved++
		}
	}
	if moved == 0 || kept < 50 {
		t.Errorf("only %d mutants kept their IDs (%d of them moved)", kept, moved)
	}
}
