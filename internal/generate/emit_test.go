package generate

import (
	"go/types"
	"slices"
	"strings"
	"testing"
)

// TestByWeight: the largest call of a readable size first, then the most
// frequent; calls too long to read last, the smallest of them first.
func TestByWeight(t *testing.T) {
	mk := func(name string, size, count, line int) *recordedCall {
		return &recordedCall{Fn: name, key: strings.Repeat("x", size), Count: count, Line: line}
	}
	calls := []*recordedCall{
		mk("huge", 9000, 1, 1),
		mk("small-frequent", 10, 7, 2),
		mk("medium", 900, 1, 3),
		mk("big", 5000, 1, 4),
		mk("small", 12, 1, 5),
	}
	var got []string
	for _, c := range byWeight(calls) {
		got = append(got, c.Fn)
	}
	want := "medium small-frequent small big huge"
	if strings.Join(got, " ") != want {
		t.Errorf("byWeight = %v, want %s", got, want)
	}
}

// TestKeyOrder: map literal entries sorted by key, numbers by value.
func TestKeyOrder(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"10: a", "9: b", "-1.5: c", "128: d"}, []string{"-1.5: c", "9: b", "10: a", "128: d"}},
		{[]string{`"b": 1`, `"a": 2`, `"ab": 3`}, []string{`"a": 2`, `"ab": 3`, `"b": 1`}},
	} {
		slices.SortFunc(c.in, keyOrder)
		if !slices.Equal(c.in, c.want) {
			t.Errorf("sorted %q, want %q", c.in, c.want)
		}
	}
}

// TestRenderDropsUnusedImports: an import a benchmark lists but does not
// use (a concurrent benchmark's list may name more) is left out, so the
// file passes go vet.
func TestRenderDropsUnusedImports(t *testing.T) {
	c := &candidate{Name: "BenchmarkX", Doc: "BenchmarkX calls F.", Body: "for b.Loop() {\n_ = math.Sqrt(2)\n}\n", Uses: []string{"math", "sync"}}
	w := newWriter(types.NewPackage("example.com/p", "p"))
	src, err := renderFile(fileSpec{pkgName: "p", goVersion: "1.24", w: w, benches: []*candidate{c}})
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nimport (\n\t\"math\"\n\t\"testing\"\n)\n\n// BenchmarkX calls F.\nfunc BenchmarkX(b *testing.B) {\n\tfor b.Loop() {\n\t\t_ = math.Sqrt(2)\n\t}\n}\n"
	if got := string(src); !strings.HasSuffix(got, want) || strings.Contains(got, "go:build") {
		t.Errorf("rendered:\n%s\nwant it to end with:\n%s", got, want)
	}
}

// TestRenderBuildLineFirst: a module whose go version predates b.Loop
// gets the go1.24 constraint as the file's first line, as Go files put
// it, then the file's comment; one import is written without parentheses.
func TestRenderBuildLineFirst(t *testing.T) {
	c := &candidate{Name: "BenchmarkX", Doc: "BenchmarkX calls F.", Body: "for b.Loop() {\n_ = F()\n}\n"}
	w := newWriter(types.NewPackage("example.com/p", "p"))
	src, err := renderFile(fileSpec{pkgName: "p", goVersion: "1.22", w: w, benches: []*candidate{c}})
	if err != nil {
		t.Fatal(err)
	}
	want := "//go:build go1.24\n\n" + fileComment + "\npackage p\n\nimport \"testing\"\n\n// BenchmarkX calls F.\n"
	if got := string(src); !strings.HasPrefix(got, want) {
		t.Errorf("rendered:\n%s\nwant it to start with:\n%s", got, want)
	}
}
