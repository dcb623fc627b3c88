package mutate

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckLeavesOutOtherBodies: a mutant whose edits lie in function
// bodies is checked against the other files without their bodies (their
// imports then look unused, which is not reported); a mutant outside
// function bodies is checked against the whole package. Both paths find
// the same errors.
func TestCheckLeavesOutOtherBodies(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		// Imports used only in function bodies.
		"a.go": "package m\n\nimport (\n\t\"fmt\"\n\tstr \"strings\"\n)\n\nfunc A(s string) string {\n\treturn fmt.Sprint(str.ToUpper(s))\n}\n",
		"b.go": "package m\n\nvar Sizes = make([]int, 0, 8)\n\nfunc B(n int) []int {\n\treturn make([]int, 0, n)\n}\n\nfunc init() {\n\tSizes = B(1)\n}\n",
		"g.go": "package m\n\ntype G[T any] struct{ v T }\n\nfunc (g *G[T]) Get() T {\n\treturn g.v\n}\n\nfunc Map[T any](xs []T) []T {\n\treturn append(make([]T, 0, len(xs)), xs...)\n}\n",
	})
	p := load(t, dir, []*Operator{testCapDrop, testBreak})
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
		if cp.inBodies(cp.index[filepath.Join(pkg.Dir, m.File)], m.Edits) {
			where = "bodies"
		}
		got = append(got, fmt.Sprintf("%s %s:%d %s %s", m.Operator, m.File, m.Line, where, res))
	}
	want := `test-break a.go:9 bodies does not type-check: a.go:9:9: undefined: undefinedName
test-cap-drop b.go:3 package ok
test-break b.go:6 bodies does not type-check: b.go:6:9: undefined: undefinedName
test-cap-drop b.go:6 bodies ok
test-break g.go:6 bodies does not type-check: g.go:6:9: undefined: undefinedName
test-break g.go:10 bodies does not type-check: g.go:10:9: undefined: undefinedName
test-cap-drop g.go:10 bodies ok`
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
