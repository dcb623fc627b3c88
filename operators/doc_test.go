package operators

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// The sections of an operator's golden file (testdata/<operator>.txtar)
// that TestDocExamples reads: the package its Doc.Before example is placed
// in (as package text of module example.com/m), with the line
// "//<example>" where the example goes, and optionally the configuration
// it runs with.
const (
	docExampleSection = "doc-example.go"
	docConfigSection  = "doc-config.yaml"
)

// TestDocExamples runs every operator over its own Doc.Before (placed in the
// package of its golden file's doc-example.go section, which gives it
// context) and checks that the result is Doc.After, up to blank lines and
// trailing spaces. Where the operator reports several sites there, all are
// applied together (cap-hint-drop); Q3 operators use the first configured
// size.
func TestDocExamples(t *testing.T) {
	for _, op := range All {
		t.Run(op.Name, func(t *testing.T) {
			path := filepath.Join("testdata", op.Name+".txtar")
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var example string
			m := &testModule{dir: t.TempDir(), cfg: config.Default()}
			for _, f := range ar.Files {
				switch f.Name {
				case docExampleSection:
					example = string(f.Data)
				case docConfigSection:
					if m.cfg, err = config.Parse(f.Data, path+": "+docConfigSection, mutate.Schema(All)); err != nil {
						t.Fatal(err)
					}
				}
			}
			const marker, begin, end = "//<example>\n", "//<example>\n", "\n//</example>\n"
			if strings.Count(example, marker) != 1 {
				t.Fatalf("%s has no %s section with one line %q where the doc example goes", path, docExampleSection, strings.TrimSpace(marker))
			}
			src := strings.Replace(example, marker, begin+op.Doc.Before+end, 1)
			for name, data := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n", "text/text.go": src} {
				p := filepath.Join(m.dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			m.load(t, []string{"./..."}, func(p *packages.Package) bool { return p.Module != nil && p.Module.Main })
			rs := m.run(t, op)
			if len(rs) == 0 {
				t.Fatalf("no mutant in the doc example:\n%s", src)
			}
			mutated := rs[0].mutated
			if op.Quadrant != mutate.Q3 && len(rs) > 1 {
				var edits []mutate.Edit
				for _, r := range rs {
					edits = append(edits, r.site.Edits...)
				}
				if mutated, err = mutate.ApplyEdits(rs[0].src, edits); err != nil {
					t.Fatal(err)
				}
			}
			got := string(mutated)
			i, j := strings.Index(got, begin), strings.LastIndex(got, end)
			if i < 0 || j < i {
				t.Fatalf("example markers lost:\n%s", got)
			}
			got = got[i+len(begin) : j]
			if normalize(got) != normalize(op.Doc.After) {
				t.Errorf("Doc.After does not match the mutant of Doc.Before:\ngot:\n%s\nDoc.After:\n%s", got, op.Doc.After)
			}
		})
	}
}

// normalize drops blank lines and trailing white space.
func normalize(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, " \t"); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
