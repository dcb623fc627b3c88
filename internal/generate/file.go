package generate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/version"
	"maps"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// FileName is the base name of the generated benchmarks' file in each
// package.
const FileName = "perfmut_gen_test.go"

// fileSpec is what renderFile writes: the package's name, the module's
// go version, the writer that named the imports, and the benchmarks with
// their doc comments.
type fileSpec struct {
	pkgName   string
	goVersion string
	w         *writer
	benches   []*candidate
	docs      map[string][]string // benchmark name -> the kill lines of its doc comment
}

// fileComment opens every generated file.
const fileComment = `// Benchmarks written by perfmut generate for functions no benchmark measured.
// Each one's comment names the function it calls and the mutants it kills.
`

// renderFile writes the benchmarks' _test.go file, gofmt'ed. A module
// whose go version predates testing.B.Loop gets a go1.24 build
// constraint, which also sets the file's language version.
func renderFile(s fileSpec) ([]byte, error) {
	var b strings.Builder
	if s.goVersion == "" || version.Compare("go"+s.goVersion, "go1.24") < 0 {
		b.WriteString("//go:build go1.24\n\n")
	}
	b.WriteString(fileComment)
	fmt.Fprintf(&b, "\npackage %s\n\n", s.pkgName)
	uses := map[string]bool{"testing": true}
	ptr := false
	for _, c := range s.benches {
		for _, u := range c.Uses {
			uses[u] = true
		}
		ptr = ptr || c.Ptr
	}
	b.WriteString("import (\n")
	for _, path := range slices.Sorted(maps.Keys(uses)) {
		name := s.w.imports[path]
		if name == "" || name == lastElem(path) {
			fmt.Fprintf(&b, "\t%q\n", path)
		} else {
			fmt.Fprintf(&b, "\t%s %q\n", name, path)
		}
	}
	b.WriteString(")\n") // formatFile drops the parentheses of a single import
	for _, c := range s.benches {
		b.WriteString("\n")
		src := fmt.Sprintf("func %s(b *testing.B) {\n%s}\n", c.Name, c.Body)
		if c.Source != "" {
			// The declaration's own doc comment, then the kills.
			i := strings.Index(c.Source, "func "+c.Name+"(")
			b.WriteString(c.Source[:i])
			src = c.Source[i:]
		} else if c.Doc != "" {
			b.WriteString("// " + c.Doc + "\n")
		}
		for _, l := range s.docs[c.Name] {
			b.WriteString("// " + l + "\n")
		}
		b.WriteString(src)
	}
	if ptr {
		b.WriteString("\n// perfmutPtr returns a pointer to a copy of v.\nfunc perfmutPtr[T any](v T) *T { return &v }\n")
	}
	return formatFile(b.String())
}

// formatFile drops the imports src does not use (a concurrent
// benchmark's import list may name more than its body calls) and
// gofmts it.
func formatFile(src string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, FileName, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parsing the generated file: %v\n%s", err, src)
	}
	for _, imp := range slices.Clone(f.Imports) {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if !astutil.UsesImport(f, path) {
			astutil.DeleteNamedImport(fset, f, name, path)
		}
	}
	if len(f.Imports) == 1 {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				g.Lparen, g.Rparen = token.NoPos, token.NoPos
			}
		}
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, fmt.Errorf("formatting the generated file: %v", err)
	}
	return out.Bytes(), nil
}

func lastElem(path string) string {
	return path[strings.LastIndex(path, "/")+1:]
}
