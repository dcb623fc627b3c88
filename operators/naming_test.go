package operators

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

func TestGoAtLeast(t *testing.T) {
	tests := []struct {
		pkg, file, need string
		want            bool
	}{
		{"go1.26", "", "go1.18", true},
		{"", "", "go1.18", true},
		{"go1.17", "", "go1.18", false},
		{"go1.26", "go1.17", "go1.18", false},
		{"go1.18", "go1.21", "go1.18", true},
	}
	for _, tt := range tests {
		fset := token.NewFileSet()
		syntax, err := parser.ParseFile(fset, "p.go", "package p\n", 0)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{FileVersions: map[*ast.File]string{}}
		pkg, err := (&types.Config{GoVersion: tt.pkg}).Check("example.com/p", fset, []*ast.File{syntax}, info)
		if err != nil {
			t.Fatal(err)
		}
		info.FileVersions[syntax] = tt.file
		f := &file{Pass: &mutate.Pass{Pkg: pkg, File: syntax, Info: info}}
		if got := f.goAtLeast(tt.need); got != tt.want {
			t.Errorf("package %q, file %q: goAtLeast(%q) = %v, want %v", tt.pkg, tt.file, tt.need, got, tt.want)
		}
	}
}
