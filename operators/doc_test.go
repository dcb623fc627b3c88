package operators

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// TestDocExamples runs every operator over its own Doc.Before (placed in a
// small package that gives it context) and checks that the result is
// Doc.After, up to blank lines and trailing spaces. Where the operator
// reports several sites there, all are applied together (cap-hint-drop);
// Q3 operators use the first configured size.
func TestDocExamples(t *testing.T) {
	type ctx struct {
		imports  string
		before   string // code before the example (inside func f unless top)
		after    string
		top      bool
		config   func(*config.Config)
		allSites bool
	}
	q3 := ctx{before: "func f(xs []int) (sum int) {\n", after: "\nreturn sum\n}\n"}
	ctxs := map[string]ctx{
		"loop-unbreaker":  {before: "func f(xs []int, want int) (found bool) {\n", after: "\nreturn found\n}\n"},
		"oblivion":        {imports: `"unicode/utf8"`, before: "func f(s string) (out []byte) {\n", after: "\nreturn out\n}\n"},
		"global-oblivion": {imports: `"regexp"`, top: true},
		"cap-hint-drop": {imports: `"strings"`, before: "func f(in []string) {\n",
			after: "\n_, _ = out, b.String()\n}\n", allSites: true},
		"spin-loop": q3, "sleep": q3, "alloc-churn": q3, "lock-contention": q3, "tail-spike": q3,
		"critical-spin":   {imports: `"sync"`, before: "func f(mu *sync.Mutex, x int) (sum int) {\n", after: "\nreturn sum\n}\n"},
		"pool-bypass":     {imports: `"sync"`, before: "var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64); return &b }}\n\nfunc f() {\n", after: "\n}\n"},
		"chan-unbuffer":   {before: "func f() {\n", after: "\n_ = jobs\n}\n"},
		"atomic-to-mutex": {imports: `"sync/atomic"`, before: "var hits atomic.Int64\n\nfunc flush() {}\n\nfunc f() {\n", after: "\n}\n"},
		"rlock-to-lock":   {imports: `"sync"`, before: "func f(mu *sync.RWMutex, x int) (sum int) {\n", after: "\nreturn sum\n}\n"},
		"call-replace": {
			before: "func isASCII(s string) bool { return true }\nfunc lowerASCII(s string) string { return s }\nfunc Lower(s string) string {\n",
			after:  "\nreturn s\n}\n",
			config: func(c *config.Config) {
				c.SetSection(CallReplace.Options, &CallReplaceOptions{{Func: "example.com/m/text.isASCII", Value: "false", Callers: []string{"Lower"}}})
			},
		},
		"var-replace": {
			before: "func isASCII(s string) bool { return true }\nfunc searchFast(s string) {}\nfunc main() {\npattern := \"x\"\n",
			after:  "\n}\n",
			config: func(c *config.Config) {
				c.SetSection(VarReplace.Options, &VarReplaceOptions{{Var: "dfafast", Value: "false", Callers: []string{"main"}}})
			},
		},
	}
	for _, op := range All {
		t.Run(op.Name, func(t *testing.T) {
			c, found := ctxs[op.Name]
			if !found {
				t.Fatalf("no context for %s's doc example", op.Name)
			}
			const begin, end = "//<example>\n", "\n//</example>\n"
			var src strings.Builder
			src.WriteString("package text\n\n")
			if c.imports != "" {
				src.WriteString("import " + c.imports + "\n\n")
			}
			src.WriteString(c.before + begin + op.Doc.Before + end + c.after)
			m := &testModule{dir: t.TempDir(), cfg: config.Default()}
			if c.config != nil {
				c.config(m.cfg)
			}
			for name, data := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n", "text/text.go": src.String()} {
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
				t.Fatalf("no mutant in the doc example:\n%s", src.String())
			}
			mutated := rs[0].mutated
			if c.allSites {
				var edits []mutate.Edit
				for _, r := range rs {
					edits = append(edits, r.site.Edits...)
				}
				var err error
				if mutated, err = mutate.ApplyEdits(rs[0].src, edits); err != nil {
					t.Fatal(err)
				}
			} else if len(rs) > 1 && op.Quadrant != mutate.Q3 {
				t.Errorf("%d mutants in the doc example, want 1", len(rs))
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
