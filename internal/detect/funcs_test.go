package detect

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"golang.org/x/tools/cover"
)

func TestIndex(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go": "package p\n\nfunc init() {}\n\ntype T[V any] struct{ v V }\n\nfunc (t *T[V]) Get() V {\n\treturn t.v\n}\n",
		"b.go": "package p\n\nfunc init() {}\n\nfunc F() int {\n\treturn 1\n}\n\nfunc decl()\n",
	}
	var names []string
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, path)
	}
	ix, err := newIndex([]*mutate.Package{{ImportPath: "example.com/p", Dir: dir, Files: names}})
	if err != nil {
		t.Fatal(err)
	}
	want := []FuncID{{"example.com/p", "(*T).Get"}, {"example.com/p", "F"}, {"example.com/p", "init"}}
	if got := ix.Funcs(); !slices.Equal(got, want) {
		t.Errorf("Funcs = %v, want %v (one init row, no body-less declaration)", got, want)
	}
	counts := ix.CoverCounts([]*cover.Profile{{FileName: "example.com/p/a.go", Blocks: []cover.ProfileBlock{
		{StartLine: 7, Count: 4}, {StartLine: 8, Count: 4}, {StartLine: 3, Count: 1}, {StartLine: 5, Count: 9}}},
		{FileName: "example.com/p/b.go", Blocks: []cover.ProfileBlock{{StartLine: 5, Count: 0}, {StartLine: 3, Count: 1}}}})
	if counts["example.com/p.(*T).Get"] != 8 || counts["example.com/p.init"] != 2 || len(counts) != 2 {
		t.Errorf("CoverCounts = %v", counts)
	}
}
