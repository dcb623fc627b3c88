package operators

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"

	"github.com/perfmut/perfmut/mutate"
)

// FuzzOperators checks the operators' invariants on any single-file package
// without imports that type-checks: no panic, edits inside the file and not
// overlapping, and every mutant (with its helper file) type-checks. The seeds
// are the golden files' import-free Go files plus a few snippets.
func FuzzOperators(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".go") && !strings.Contains(string(file.Data), "import") {
				f.Add(string(file.Data))
			}
		}
	}
	f.Add("package p\n\nfunc f(n int) (s int) {\n\tfor i := 0; i < n; i++ {\n\t\tif i > 10 {\n\t\t\tbreak\n\t\t}\n\t\ts += g(i)\n\t}\n\treturn s\n}\n\nfunc g(i int) int { return i * 2 }\n")
	f.Add("package p\n\nvar t = mk(3)\n\nfunc mk(n int) []int { return make([]int, n, 2*n) }\n\nfunc use() int { ok := len(t) > 0; if ok { return t[0] }; return 0 }\n")
	cfg := yamlConfig(f, `
spin-loop:
  iterations: [100]
call-replace:
  - {func: example.com/p.g, value: "0"}
  - {func: example.com/p.mk, value: "nil"}
var-replace:
  - {var: n, value: "0"}
  - {var: ok, value: "false"}
  - {var: i, value: "1"}
`)
	f.Fuzz(func(t *testing.T, src string) {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil || len(file.Imports) > 0 {
			t.Skip()
		}
		info := &types.Info{
			Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
			Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
			Scopes: map[ast.Node]*types.Scope{}, FileVersions: map[*ast.File]string{},
		}
		conf := types.Config{GoVersion: "go1.26", Sizes: types.SizesFor("gc", runtime.GOARCH)}
		pkg, err := conf.Check("example.com/p", fset, []*ast.File{file}, info)
		if err != nil {
			t.Skip()
		}
		for _, op := range All {
			var sites []mutate.Site
			op.Run(&mutate.Pass{Fset: fset, File: file, Src: []byte(src), Pkg: pkg, Info: info, Config: cfg, Options: cfg.Section(op.Options),
				Report: func(s mutate.Site) { sites = append(sites, s) }})
			for _, s := range sites {
				if s.Node == nil || s.Description == "" || len(s.Edits) == 0 {
					t.Fatalf("%s: incomplete site %+v", op.Name, s)
				}
				mutated, err := mutate.ApplyEdits([]byte(src), s.Edits)
				if err != nil {
					t.Fatalf("%s: %s: %v", op.Name, s.Description, err)
				}
				if err := checkSingle(string(mutated), siteHelper(pkg.Name(), op, s)); err != nil {
					t.Errorf("%s: %s: %v\n%s", op.Name, s.Description, err, mutated)
				}
			}
		}
	})
}

// checkSingle type-checks a one-file package with its helper file, with the
// standard library available from source for the helper's imports.
func checkSingle(src, helper string) error {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	files := []*ast.File{file}
	if helper != "" {
		h, err := parser.ParseFile(fset, helperFile, helper, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, h)
	}
	conf := types.Config{GoVersion: "go1.26", Sizes: types.SizesFor("gc", runtime.GOARCH), Importer: stdImporter(fset)}
	_, err = conf.Check("example.com/p", fset, files, nil)
	return err
}

// stdImporter type-checks the helpers' standard-library imports from
// source, once per process.
func stdImporter(fset *token.FileSet) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		stdOnce.Do(func() { stdPkgs, stdErr = loadStd() })
		if stdErr != nil {
			return nil, stdErr
		}
		if p := stdPkgs[path]; p != nil {
			return p, nil
		}
		return nil, os.ErrNotExist
	})
}

var (
	stdOnce sync.Once
	stdPkgs map[string]*types.Package
	stdErr  error
)

// loadStd loads the helpers' imports (types from export data).
func loadStd() (map[string]*types.Package, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports, Env: goEnv()}
	pkgs, err := packages.Load(cfg, helperImports()...)
	if err != nil {
		return nil, err
	}
	m := map[string]*types.Package{}
	for _, p := range pkgs {
		if p.Types == nil || len(p.Errors) > 0 {
			return nil, fmt.Errorf("loading %s: %v", p.PkgPath, p.Errors)
		}
		m[p.PkgPath] = p.Types
	}
	return m, nil
}
