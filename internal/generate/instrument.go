package generate

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/mutate"
)

//go:embed recorder/recorder.go
var recorderSrc string

// recorderFile is the base name of the recorder added to an instrumented
// package.
const recorderFile = "perfmut_capture_recorder.go"

// recorder returns the recorder's source in package name.
func recorder(name string) []byte {
	re := regexp.MustCompile(`(?m)^package recorder$`)
	return []byte(re.ReplaceAllString(recorderSrc, "package "+name))
}

// A probe is one function to instrument: its declaration in pkg and the
// key its calls are recorded under.
type probe struct {
	pkg  *mutate.Package
	decl *ast.FuncDecl
	key  string
}

// instrument returns the overlay that records the calls of probes: each
// function's file with a call of perfmutCapture inserted after the
// opening brace of its body (on the same line: every position before it
// and every other line keep theirs), its blank or unnamed parameters
// named, and the recorder added to each package.
func instrument(probes []probe) (map[string][]byte, error) {
	edits := map[string][]mutate.Edit{}
	names := map[string]string{} // package dir -> package name
	for _, p := range probes {
		fset := p.pkg.Fset()
		file := fset.File(p.decl.Pos()).Name()
		edits[file] = append(edits[file], probeEdits(fset, p)...)
		names[p.pkg.Dir] = p.pkg.Name
	}
	ov := map[string][]byte{}
	for file, es := range edits {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		out, err := mutate.ApplyEdits(src, es)
		if err != nil {
			return nil, fmt.Errorf("instrumenting %s: %v", file, err)
		}
		ov[file] = out
	}
	for dir, name := range names {
		ov[filepath.Join(dir, recorderFile)] = recorder(name)
	}
	return ov, nil
}

// probeEdits are the edits that make p's function record its calls.
func probeEdits(fset *token.FileSet, p probe) []mutate.Edit {
	off := func(pos token.Pos) int { return fset.Position(pos).Offset }
	var es []mutate.Edit
	// name gives a field's names, naming blank and unnamed ones.
	name := func(f *ast.Field, prefix string, n *int) []string {
		var out []string
		if len(f.Names) == 0 {
			nm := fmt.Sprintf("%s%d", prefix, *n)
			*n++
			es = append(es, mutate.Edit{Start: off(f.Type.Pos()), End: off(f.Type.Pos()), New: nm + " "})
			return []string{nm}
		}
		for _, id := range f.Names {
			nm := id.Name
			if nm == "_" {
				nm = fmt.Sprintf("%s%d", prefix, *n)
				*n++
				es = append(es, mutate.Edit{Start: off(id.Pos()), End: off(id.End()), New: nm})
			}
			out = append(out, nm)
		}
		return out
	}
	var args, targs []string
	recv := "nil"
	n := 0
	if fd := p.decl; fd.Recv != nil && len(fd.Recv.List) == 1 {
		f := fd.Recv.List[0]
		r := name(f, "perfmutRecv", &n)[0]
		args = append(args, "&"+r)
		typ := f.Type
		if star, ok := typ.(*ast.StarExpr); ok {
			recv, typ = r, star.X
		}
		for _, ix := range typeIndices(typ) {
			if id, ok := ix.(*ast.Ident); ok {
				nm := id.Name
				if nm == "_" {
					nm = fmt.Sprintf("perfmutT%d", n)
					n++
					es = append(es, mutate.Edit{Start: off(id.Pos()), End: off(id.End()), New: nm})
				}
				targs = append(targs, "(*"+nm+")(nil)")
			}
		}
	}
	if tp := p.decl.Type.TypeParams; tp != nil {
		for _, f := range tp.List {
			for _, nm := range name(f, "perfmutT", &n) {
				targs = append(targs, "(*"+nm+")(nil)")
			}
		}
	}
	for _, f := range p.decl.Type.Params.List {
		for _, nm := range name(f, "perfmutArg", &n) {
			args = append(args, "&"+nm)
		}
	}
	call := fmt.Sprintf("perfmutCapture(%q, %s, []any{%s}", p.key, recv, strings.Join(targs, ", "))
	if len(args) > 0 {
		call += ", " + strings.Join(args, ", ")
	}
	call += ");"
	at := off(p.decl.Body.Lbrace) + 1
	es = append(es, mutate.Edit{Start: at, End: at, New: call})
	slices.SortFunc(es, func(a, b mutate.Edit) int { return a.Start - b.Start })
	return es
}

// typeIndices are the type arguments of a receiver type (LRU[K, V]).
func typeIndices(t ast.Expr) []ast.Expr {
	switch t := t.(type) {
	case *ast.IndexExpr:
		return []ast.Expr{t.Index}
	case *ast.IndexListExpr:
		return t.Indices
	}
	return nil
}
