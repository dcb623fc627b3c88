package mutate

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"strings"
	"testing"
)

// testRef replaces the single result of every return statement in F, H,
// K and W with a read of the package-level variable cache.
var testRef = &Operator{
	Name:     "test-ref",
	Quadrant: Q2,
	Run: func(pass *Pass) {
		tf := pass.Fset.File(pass.File.FileStart)
		for _, d := range pass.File.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || (fd.Name.Name != "F" && fd.Name.Name != "H" && fd.Name.Name != "K" && fd.Name.Name != "W") {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
					r := ret.Results[0]
					pass.Report(Site{Node: ret, Description: "return cache",
						Edits: []Edit{{Start: tf.Offset(r.Pos()), End: tf.Offset(r.End()), New: "cache"}}})
				}
				return true
			})
		}
	},
}

// TestCheckReduced: a mutant that only changes function bodies and adds
// no reference to a package-level variable or function is checked against
// the other files without their function bodies and typed initializers
// (their imports then look unused, which is not reported); other mutants
// are checked against the whole package. Both find the same errors, among
// them an initialization cycle through other files' bodies.
func TestCheckReduced(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		// Imports used only in function bodies and initializers.
		"a.go": "package m\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n\t\"unicode\"\n)\n\nfunc A(s string) string {\n\treturn fmt.Sprint(str.ToUpper(s))\n}\n\nvar upper = [2]func(rune) rune{unicode.ToUpper, unicode.ToLower}\n",
		"b.go": "package m\n\nvar Sizes = make([]int, 0, 8)\n\nfunc B(n int) []int {\n\treturn make([]int, 0, n)\n}\n\nfunc init() {\n\tSizes = B(1)\n}\n",
		"g.go": "package m\n\ntype G[T any] struct{ v T }\n\nfunc (g *G[T]) Get() T {\n\treturn g.v\n}\n\nfunc Map[T any](xs []T) []T {\n\treturn append(make([]T, 0, len(xs)), xs...)\n}\n",
		"t.go": "package m\n\nvar table = [...]int{1, 2, 3, 4}\n\nvar names, more = []string{\"a\"}, map[string]int{\"b\": len(table)}\n\nvar cache = build()\n\nfunc build() int {\n\treturn len(table) + F()\n}\n",
		// sort is used only in U, strings only in W.
		"u.go": "package m\n\nimport (\n\t\"sort\"\n\t\"strings\"\n)\n\nfunc U(xs []string) {\n\tsort.Strings(xs)\n}\n\nfunc W() int {\n\t_ = cache\n\treturn strings.Count(\"ab\", \"a\")\n}\n\nfunc Z(n int) []int {\n\treturn make([]int, 0, n)\n}\n",
		"f.go": "package m\n\nfunc F() int {\n\treturn 1\n}\n\nfunc H() int {\n\treturn table[0]\n}\n\nfunc K() int {\n\tx := cache\n\tif x > 0 {\n\t\treturn x\n\t}\n\treturn x + 1\n}\n",
	})
	p := load(t, dir, []*Operator{testCapDrop, testBreak, testRef})
	ms := generate(t, p)
	var got []string
	for _, m := range ms {
		err := p.Check(m)
		full := p.CheckFull(m)
		if (err == nil) != (full == nil) || err != nil && err.Error() != full.Error() {
			t.Errorf("%s %s:%d: Check = %v, full check = %v", m.Operator, m.File, m.Line, err, full)
		}
		res := "ok"
		if err != nil {
			res = strings.TrimPrefix(err.Error(), "mutant "+m.ID+" ")
		}
		pkg := p.byPath[m.Package]
		cp := p.checkPkg(pkg)
		where := "package"
		name := filepath.Join(pkg.Dir, m.File)
		src, _ := p.source(name)
		if fi := cp.index[name]; cp.local(fi, src, m.Edits) {
			where = "local"
			// The reduced check alone accepts what compiles.
			blanked, _ := ApplyEdits(cp.blankBodies(fi, src, m.Edits), m.Edits)
			if red := p.typeCheck(m, cp, fi, blanked, cp.reducedFiles(), true); full == nil && red != nil {
				t.Errorf("%s %s:%d: reduced check: %v", m.Operator, m.File, m.Line, red)
			}
		}
		got = append(got, fmt.Sprintf("%s %s:%d %s %s", m.Operator, m.File, m.Line, where, res))
	}
	want := `test-break a.go:10 local does not type-check: a.go:10:9: undefined: undefinedName
test-cap-drop b.go:3 package ok
test-break b.go:6 local does not type-check: b.go:6:9: undefined: undefinedName
test-cap-drop b.go:6 local ok
test-break f.go:4 local does not type-check: f.go:4:9: undefined: undefinedName
test-ref f.go:4 package does not type-check: t.go:7:5: initialization cycle for cache
test-break f.go:8 local does not type-check: f.go:8:9: undefined: undefinedName
test-ref f.go:8 package ok
test-break f.go:14 local does not type-check: f.go:14:10: undefined: undefinedName
test-ref f.go:14 local ok
test-break f.go:16 local does not type-check: f.go:16:9: undefined: undefinedName
test-ref f.go:16 local ok
test-break g.go:6 local does not type-check: g.go:6:9: undefined: undefinedName
test-break g.go:10 local does not type-check: g.go:10:9: undefined: undefinedName
test-cap-drop g.go:10 local ok
test-break t.go:10 local does not type-check: t.go:10:9: undefined: undefinedName
test-break u.go:14 local does not type-check: u.go:14:9: undefined: undefinedName
test-ref u.go:14 local does not type-check: u.go:5:2: "strings" imported and not used
test-break u.go:18 local does not type-check: u.go:18:9: undefined: undefinedName
test-cap-drop u.go:18 local ok`
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("checks:\n%s\nwant\n%s", g, want)
	}
	// The loaded syntax is shared, never modified.
	for _, f := range p.byPath["example.com/m"].pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
				t.Errorf("%s lost its body", fd.Name.Name)
			}
		}
	}
}

func TestIdentifiers(t *testing.T) {
	got := strings.Join(identifiers(`perfmut_spin(100); x := a.b["c"] + 'd' // e`), " ")
	if want := "perfmut_spin x a b"; got != want {
		t.Errorf("identifiers = %q, want %q", got, want)
	}
}

// testPlusZero adds 0 to every return statement's first result: mutants
// that compile and touch one body each.
var testPlusZero = &Operator{
	Name:     "test-plus-zero",
	Quadrant: Q4,
	Run: func(pass *Pass) {
		tf := pass.Fset.File(pass.File.FileStart)
		ast.Inspect(pass.File, func(n ast.Node) bool {
			if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
				at := tf.Offset(ret.Results[0].End())
				pass.Report(Site{Node: ret, Description: "add 0", Edits: []Edit{{Start: at, End: at, New: " + 0"}}})
			}
			return true
		})
	},
}

// TestCheckDropsPlainFunctions: a local mutant's check leaves out the
// plain functions that neither its function nor the kept package-level
// code names (C and D for a mutant of A; E stays, an untyped initializer
// names it), and finds what the whole package's check finds, an import
// used only in a left-out function's signature or body included.
func TestCheckDropsPlainFunctions(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a.go": "package m\n\nimport (\n\t\"io\"\n\t\"strings\"\n)\n\nfunc A(n int) int {\n\treturn B(n) + 1\n}\n\nfunc B(n int) int {\n\treturn n * 2\n}\n\n" +
			"func C(w io.Writer) int {\n\treturn 3\n}\n\nfunc D(s string) int {\n\treturn len(strings.TrimSpace(s))\n}\n\nfunc E() int {\n\treturn 5\n}\n\nvar v = E()\n",
		"b.go": "package m\n\nfunc F() int {\n\treturn A(1)\n}\n\nfunc G() int {\n\treturn 7\n}\n",
	})
	p := load(t, dir, []*Operator{testBreak, testPlusZero})
	var got []string
	for _, m := range generate(t, p) {
		err, full := p.Check(m), p.CheckFull(m)
		if (err == nil) != (full == nil) || err != nil && err.Error() != full.Error() {
			t.Errorf("%s %s:%d: Check = %v, full check = %v", m.Operator, m.File, m.Line, err, full)
		}
		pkg := p.byPath[m.Package]
		cp := p.checkPkg(pkg)
		name := filepath.Join(pkg.Dir, m.File)
		src, _ := p.source(name)
		fi := cp.index[name]
		var left []string
		if cp.local(fi, src, m.Edits) {
			keep := cp.keep(fi, src, m.Edits)
			for i, plain := range cp.drop.plain {
				edits := m.Edits // of file fi only
				if i != fi {
					edits = nil
				}
				for k, pd := range plain {
					if cp.dropped(i, k, keep, edits) {
						left = append(left, pd.name)
					}
				}
			}
		}
		res := "ok"
		if err != nil {
			res = "error"
		}
		got = append(got, fmt.Sprintf("%s %s:%d %s, left out %s", m.Operator, m.File, m.Line, res, strings.Join(left, " ")))
	}
	want := `test-break a.go:9 error, left out C D F G
test-plus-zero a.go:9 ok, left out C D F G
test-break a.go:13 error, left out A C D F G
test-plus-zero a.go:13 ok, left out A C D F G
test-break a.go:17 error, left out A B D F G
test-plus-zero a.go:17 ok, left out A B D F G
test-break a.go:21 error, left out A B C F G
test-plus-zero a.go:21 ok, left out A B C F G
test-break a.go:25 error, left out A B C D F G
test-plus-zero a.go:25 ok, left out A B C D F G
test-break b.go:4 error, left out B C D G
test-plus-zero b.go:4 ok, left out B C D G
test-break b.go:8 error, left out A B C D F
test-plus-zero b.go:8 ok, left out A B C D F`
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("checks:\n%s\nwant\n%s", g, want)
	}
}
