package q3overhead

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

var update = flag.Bool("update", false, "rewrite variants_gen.go from the operators' current output")

const genFile = "variants_gen.go"

// TestGenerated checks that variants_gen.go is exactly what perfmut's Q3
// and concurrency operators inject into testdata/loop today, so the benchmarks measure the
// real mutants. Run with -update after an operator changes.
func TestGenerated(t *testing.T) {
	got, err := generate(context.Background(), filepath.Join("testdata", "loop"))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(genFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(genFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: the operators now inject different code; run\n\tgo test ./bench/q3overhead -run TestGenerated -update\n--- fresh output ---\n%s", genFile, got)
	}
}

// siteOps names the Q4 operators measured on sites.go (with every Q3
// operator, whose sites there are critical sections).
var siteOps = []string{"rlock-to-lock", "atomic-to-mutex", "pool-bypass", "chan-unbuffer"}

// generate loads the module in dir with the default configuration, runs
// every Q3 operator of operators.All and those of siteOps on it, and
// returns a Go file of package q3overhead holding the helpers, the original
// Sum as sumBaseline and one renamed copy of the mutated Sum per mutant of
// loop.go, sites.go's variables and, per function of sites.go, its original
// and one renamed copy per mutant, and the two variants tables.
func generate(ctx context.Context, dir string) ([]byte, error) {
	var ops []*mutate.Operator
	for _, op := range operators.All {
		if op.Quadrant == mutate.Q3 || slices.Contains(siteOps, op.Name) {
			ops = append(ops, op)
		}
	}
	prog, err := mutate.Load(ctx, mutate.Options{Dir: dir, Config: config.Default(), Operators: ops})
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", dir, err)
	}
	ms, err := prog.Generate()
	if err != nil {
		return nil, fmt.Errorf("generating mutants of %s: %w", dir, err)
	}
	g := &generated{imports: map[string]bool{}, seenHelper: map[string]bool{}}
	loopSrc, err := os.ReadFile(filepath.Join(dir, "loop.go"))
	if err != nil {
		return nil, err
	}
	sitesSrc, err := os.ReadFile(filepath.Join(dir, "sites.go"))
	if err != nil {
		return nil, err
	}
	base, err := funcDecl(loopSrc, "Sum", "sumBaseline")
	if err != nil {
		return nil, err
	}
	g.funcs.WriteString("// sumBaseline is the unmutated loop.\n" + base + "\n\n")
	g.table.WriteString("\t{\"baseline\", \"\", sumBaseline},\n")
	vars, imps, err := varDecls(sitesSrc)
	if err != nil {
		return nil, err
	}
	for _, imp := range imps {
		g.imports[imp] = true
	}
	g.funcs.WriteString("// The variables of sites.go.\n\n" + vars + "\n\n")
	sites, err := funcNames(sitesSrc)
	if err != nil {
		return nil, err
	}
	for _, fn := range sites {
		name := lowerFirst(fn) + "Baseline"
		decl, err := funcDecl(sitesSrc, fn, name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&g.funcs, "// %s is the unmutated %s.\n%s\n\n", name, fn, decl)
		fmt.Fprintf(&g.siteTable, "\t{%q, \"baseline\", \"\", %s},\n", fn, name)
	}
	for _, m := range ms {
		if err := g.add(prog, m); err != nil {
			return nil, err
		}
	}
	return g.format()
}

// generated accumulates the generated file.
type generated struct {
	imports                          map[string]bool
	seenHelper                       map[string]bool
	helpers, funcs, table, siteTable strings.Builder
}

// add adds mutant m: a renamed copy of the function it mutates, its entry
// in a variants table and its operator's helper.
func (g *generated) add(prog *mutate.Program, m mutate.Mutant) error {
	ov, err := prog.Overlay(m)
	if err != nil {
		return err
	}
	var mutated []byte
	for path, content := range ov {
		if filepath.Base(path) == filepath.Base(m.File) {
			mutated = content
		}
	}
	if mutated == nil {
		return fmt.Errorf("mutant %s does not change %s", m.ID, m.File)
	}
	var name string
	switch m.File {
	case "loop.go":
		name = "sum" + ident(m.Operator) + ident(paramString(m.Params))
		fmt.Fprintf(&g.table, "\t{%q, %q, %s},\n", m.Operator, paramString(m.Params), name)
	case "sites.go":
		name = lowerFirst(m.Function) + ident(m.Operator) + ident(paramString(m.Params))
		fmt.Fprintf(&g.siteTable, "\t{%q, %q, %q, %s},\n", m.Function, m.Operator, paramString(m.Params), name)
	default:
		return fmt.Errorf("mutant %s in unexpected file %s", m.ID, m.File)
	}
	fn, err := funcDecl(mutated, m.Function, name)
	if err != nil {
		return fmt.Errorf("mutant %s: %w", m.ID, err)
	}
	fmt.Fprintf(&g.funcs, "// %s is mutant %s: %s.\n%s\n\n", name, m.ID, m.Description, fn)
	if m.Helper != "" && !g.seenHelper[m.Operator] {
		g.seenHelper[m.Operator] = true
		decls, imps, err := helperDecls(m.Helper)
		if err != nil {
			return fmt.Errorf("helper of %s: %w", m.Operator, err)
		}
		for _, imp := range imps {
			g.imports[imp] = true
		}
		fmt.Fprintf(&g.helpers, "// Helper of %s, as perfmut adds it to a mutated package.\n\n%s\n\n", m.Operator, decls)
	}
	return nil
}

// format assembles and formats the file.
func (g *generated) format() ([]byte, error) {
	var b strings.Builder
	b.WriteString("// Code generated by go test ./bench/q3overhead -run TestGenerated -update. DO NOT EDIT.\n")
	b.WriteString("// Source: testdata/loop mutated by perfmut's operators (default configuration).\n\n")
	b.WriteString("package q3overhead\n\n")
	var imps []string
	for imp := range g.imports {
		imps = append(imps, imp)
	}
	sort.Strings(imps)
	if len(imps) > 0 {
		b.WriteString("import (\n")
		for _, imp := range imps {
			b.WriteString("\t" + strconv.Quote(imp) + "\n")
		}
		b.WriteString(")\n\n")
	}
	b.WriteString(g.helpers.String())
	b.WriteString(g.funcs.String())
	b.WriteString("// variants lists the baseline loop and every mutant of it, in perfmut's order.\n")
	b.WriteString("var variants = []variant{\n" + g.table.String() + "}\n\n")
	b.WriteString("// siteVariants lists, per function of sites.go, the original and every mutant of it, in perfmut's order.\n")
	b.WriteString("var siteVariants = []siteVariant{\n" + g.siteTable.String() + "}\n")
	out, err := format.Source([]byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("formatting the generated file: %w\n%s", err, b.String())
	}
	return out, nil
}

// varDecls returns the source of src's var declarations and its import
// paths.
func varDecls(src []byte) (string, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "sites.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", nil, err
	}
	var parts, imps []string
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return "", nil, err
		}
		imps = append(imps, p)
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			parts = append(parts, string(src[fset.Position(gd.Pos()).Offset:fset.Position(gd.End()).Offset]))
		}
	}
	return strings.Join(parts, "\n\n"), imps, nil
}

// funcNames returns the names of src's functions in source order.
func funcNames(src []byte) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "sites.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			names = append(names, fd.Name.Name)
		}
	}
	return names, nil
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// funcDecl returns the source of func fn in src, renamed to name.
func funcDecl(src []byte, fn, name string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "src.go", src, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn {
			continue
		}
		start := fset.Position(fd.Pos()).Offset
		nameOff := fset.Position(fd.Name.Pos()).Offset
		end := fset.Position(fd.End()).Offset
		return string(src[start:nameOff]) + name + string(src[nameOff+len(fn):end]), nil
	}
	return "", fmt.Errorf("no func %s", fn)
}

// helperDecls returns a helper file's declarations (everything after its
// imports) and its import paths.
func helperDecls(src string) (string, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "helper.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", nil, err
	}
	var imps []string
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return "", nil, err
		}
		imps = append(imps, p)
	}
	start := fset.Position(f.Name.End()).Offset
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			start = fset.Position(gd.End()).Offset
		}
	}
	return strings.TrimSpace(src[start:]), imps, nil
}

// paramString renders params as "k=v" pairs sorted by key ("" if none).
func paramString(params map[string]any) string {
	var keys []string
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, params[k]))
	}
	return strings.Join(parts, ",")
}

// ident turns s into a CamelCase Go identifier fragment.
func ident(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			if up {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			up = false
		default:
			up = true
		}
	}
	return b.String()
}
