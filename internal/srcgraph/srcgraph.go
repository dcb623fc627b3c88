// Package srcgraph is the quick plan's reading of the source: without
// building or running anything, which functions each benchmark and each
// test may run. A function's body names functions (called or not): an identifier names a
// function of its own package (in a test file, first of the test files),
// pkg.F a function of another package of the module, x.M every method
// named M in the module. Reachability over these names over-approximates
// what coverage finds for direct calls and interface methods, and misses
// only calls through values made far from where they are named.
package srcgraph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math/bits"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfmut/perfmut/mutate"
)

// A Graph is the functions of the loaded packages and what each names.
type Graph struct {
	IDs     map[string]int   // node key (see Key) -> id
	edges   [][]int          // id -> ids it names
	methods map[string][]int // method name -> ids of every method so named
	// roots of each package: its benchmarks and tests (and examples and
	// fuzz targets), as node ids, in source order.
	Benches map[string][]Root
	Tests   map[string][]Root
	// testFiles holds the packages with test files (a test binary).
	TestFiles map[string]bool
}

// A Root is one benchmark or test function.
type Root struct {
	Name string
	ID   int
}

// Key names a function of package pkg (an import path; test files get
// pkg+" [test]") as Mutant.Function names it.
func Key(pkg, fn string) string { return pkg + "\x00" + fn }

// testNS is the namespace of pkg's test files.
func testNS(pkg string) string { return pkg + " [test]" }

func (g *Graph) id(key string) int {
	if id, ok := g.IDs[key]; ok {
		return id
	}
	id := len(g.edges)
	g.IDs[key] = id
	g.edges = append(g.edges, nil)
	return id
}

// Scan parses every .go file of pkgs (test files included, build
// constraints ignored) into a Graph. Files that do not parse are skipped.
func Scan(pkgs []*mutate.Package) *Graph {
	g := &Graph{IDs: map[string]int{}, methods: map[string][]int{}, Benches: map[string][]Root{}, Tests: map[string][]Root{}, TestFiles: map[string]bool{}}
	names := map[string]string{} // import path -> package name
	for _, p := range pkgs {
		names[p.ImportPath] = p.Name
	}
	type body struct {
		from    int
		ns, pkg string
		imports map[string]string // local name -> module import path
		fn      *ast.FuncDecl
	}
	var bodies []body
	fset := token.NewFileSet()
	for _, p := range pkgs {
		files, _ := filepath.Glob(filepath.Join(p.Dir, "*.go"))
		for _, name := range files {
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			test := strings.HasSuffix(name, "_test.go")
			ns := p.ImportPath
			if test {
				ns = testNS(p.ImportPath)
				g.TestFiles[p.ImportPath] = true
			}
			imports := fileImports(f, names)
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				fn := mutate.FuncName(fd)
				id := g.id(Key(ns, fn))
				if fd.Recv != nil {
					g.methods[fd.Name.Name] = append(g.methods[fd.Name.Name], id)
				} else if test {
					g.addRoot(p.ImportPath, fn, id)
				}
				bodies = append(bodies, body{id, ns, p.ImportPath, imports, fd})
			}
		}
	}
	for _, b := range bodies {
		var visit func(ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok {
					if path, ok := b.imports[x.Name]; ok {
						if id, ok := g.IDs[Key(path, n.Sel.Name)]; ok {
							g.edges[b.from] = append(g.edges[b.from], id)
						}
						return false
					}
				}
				g.edges[b.from] = append(g.edges[b.from], g.methods[n.Sel.Name]...)
				ast.Inspect(n.X, visit)
				return false
			case *ast.Ident:
				for _, ns := range []string{b.ns, b.pkg} {
					if id, ok := g.IDs[Key(ns, n.Name)]; ok {
						g.edges[b.from] = append(g.edges[b.from], id)
						break
					}
				}
			}
			return true
		}
		ast.Inspect(b.fn.Body, visit)
	}
	return g
}

// addRoot records a test file's top-level function fn of pkg if it is a
// benchmark or a test.
func (g *Graph) addRoot(pkg, fn string, id int) {
	switch {
	case strings.HasPrefix(fn, "Benchmark"):
		g.Benches[pkg] = append(g.Benches[pkg], Root{fn, id})
	case strings.HasPrefix(fn, "Test") && fn != "TestMain", strings.HasPrefix(fn, "Example"), strings.HasPrefix(fn, "Fuzz"):
		g.Tests[pkg] = append(g.Tests[pkg], Root{fn, id})
	}
}

// fileImports maps the local names of f's imports of module packages
// (names: import path -> package name) to their import paths.
func fileImports(f *ast.File, names map[string]string) map[string]string {
	out := map[string]string{}
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		name, ok := names[p]
		if !ok {
			continue
		}
		if is.Name != nil {
			name = is.Name.Name
		} else if name == "" {
			name = path.Base(p)
		}
		out[name] = p
	}
	return out
}

// A Set is a set of node ids.
type Set []uint64

func (s Set) Has(id int) bool { return id >= 0 && id/64 < len(s) && s[id/64]&(1<<(id%64)) != 0 }

// Reach is the set of nodes root names, directly or not.
func (g *Graph) Reach(root int) Set {
	s := make(Set, (len(g.edges)+63)/64)
	stack := []int{root}
	s[root/64] |= 1 << (root % 64)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range g.edges[n] {
			if s[m/64]&(1<<(m%64)) == 0 {
				s[m/64] |= 1 << (m % 64)
				stack = append(stack, m)
			}
		}
	}
	return s
}

// Count is the number of nodes in s.
func (s Set) Count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}
