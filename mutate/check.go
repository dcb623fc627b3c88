package mutate

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Check type-checks the mutated package in-process; nil if it compiles.
// Only the mutated file and the helper file are parsed afresh; the
// package's other files are reused as loaded (go/types does not modify
// syntax trees, so concurrent checks share them) and imports resolve to
// the loaded packages. Check is safe for concurrent use.
//
// Most mutants change only function bodies and refer to no package-level
// variable or function their function did not refer to before. For them
// the package's declarations are those of the loaded package (which
// compiled) and no initialization cycle can appear, so the other files'
// function bodies and the initializers of their explicitly typed
// variables cannot make a difference: they are left out of the check.
// That makes checking a mutant of a package with large files (say, a
// generated lookup table) cheap. Other mutants are checked against the
// whole package.
func (p *Program) Check(m Mutant) error { return p.check(m, true) }

// CheckAll checks mutants with GOMAXPROCS workers and returns each one's
// Check result (parallel to mutants). If ctx is cancelled, the mutants not
// yet checked get ctx.Err().
func (p *Program) CheckAll(ctx context.Context, mutants []Mutant) []error {
	errs := make([]error, len(mutants))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(mutants)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(mutants) {
					return
				}
				if err := ctx.Err(); err != nil {
					errs[i] = err
					continue
				}
				errs[i] = p.Check(mutants[i])
			}
		}()
	}
	wg.Wait()
	return errs
}

// check is Check; with reduce=false it always checks the whole package.
func (p *Program) check(m Mutant, reduce bool) error {
	name, orig, mut, err := p.mutated(m)
	if err != nil {
		return err
	}
	_, _, pkg, _ := p.paths(m)
	cp := p.checkPkg(pkg)
	fi, ok := cp.index[name]
	if !ok {
		return fmt.Errorf("mutant %s: %s is not a file of package %s", m.ID, m.File, m.Package)
	}
	if reduce && cp.local(fi, orig, m.Edits) {
		// The mutated file without the bodies of the functions the
		// mutant does not touch and without the plain functions it does
		// not name (see checkdrop.go), against the reduced other files.
		// Any error (perhaps an import only those bodies used) is left
		// to the whole package to confirm, with its own message.
		cp.dropOnce.Do(func() { cp.initDrop(pkg.pkg.TypesInfo) })
		keep := cp.keep(fi, orig, m.Edits)
		if src, err := ApplyEdits(cp.blankDecls(fi, cp.blankBodies(fi, orig, m.Edits), keep, m.Edits), m.Edits); err == nil {
			if p.typeCheckKeeping(m, cp, fi, src, cp.filesKeeping(fi, keep), true, keep) == nil {
				return nil
			}
		}
	}
	return p.typeCheck(m, cp, fi, mut, cp.files, false)
}

// typeCheck type-checks the package made of files with files[fi] replaced
// by a fresh parse of src and m's helper file added. If reduced, files
// are reduced copies (see reducedFiles) and imports they leave unused are
// not errors.
func (p *Program) typeCheck(m Mutant, cp *checkPkg, fi int, src []byte, files []*ast.File, reduced bool) error {
	return p.typeCheckKeeping(m, cp, fi, src, files, reduced, nil)
}

// typeCheckKeeping is typeCheck of a check that keeps only the plain
// functions in keep (nil: all of them; see checkdrop.go): an import the
// mutated file uses only in the others is not reported unused.
func (p *Program) typeCheckKeeping(m Mutant, cp *checkPkg, fi int, src []byte, files []*ast.File, reduced bool, keep map[string]bool) error {
	name := cp.tfiles[fi].Name()
	_, helper, pkg, _ := p.paths(m)
	// A private file set: the loaded files' token.Files plus fresh ones for
	// the mutated and helper files, so the shared set does not grow with
	// every check.
	fset := token.NewFileSet()
	fset.AddExistingFiles(cp.tfiles...)
	pf, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("mutant %s does not parse: %v", m.ID, p.relErr(err))
	}
	if reduced {
		// The mutant changes function bodies only: the file's data
		// tables are as loaded.
		elideData(pf)
	}
	files = append([]*ast.File(nil), files...)
	files[fi] = pf
	if helper != "" {
		hf, err := parser.ParseFile(fset, helper, m.Helper, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("mutant %s: helper file does not parse: %v", m.ID, p.relErr(err))
		}
		files = append(files, hf)
	}
	lp := pkg.pkg
	var first error
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if ip := lp.Imports[path]; ip != nil && ip.Types != nil {
				return ip.Types, nil
			}
			if ip := p.all[path]; ip != nil && ip.Types != nil {
				return ip.Types, nil
			}
			return nil, fmt.Errorf("package %s is not loaded", path)
		}),
		Sizes: lp.TypesSizes,
		Error: func(err error) {
			if first != nil {
				return
			}
			// Without their bodies and initializers, the other files
			// may not use all their imports, and the mutated file may
			// not use those only its left-out bodies use; that is not
			// the mutant's doing.
			if te, ok := err.(types.Error); ok && reduced && te.Soft && strings.HasSuffix(te.Msg, "and not used") {
				if tf := te.Fset.File(te.Pos); tf != nil && tf.Name() != helper {
					if tf.Name() != name || cp.usedElsewhere(fi, tf.Offset(te.Pos), m.Edits) ||
						keep != nil && cp.usedInDropped(fi, tf.Offset(te.Pos), keep, m.Edits) {
						return
					}
				}
			}
			first = err
		},
	}
	if lp.Module != nil && lp.Module.GoVersion != "" {
		conf.GoVersion = "go" + lp.Module.GoVersion
	}
	_, _ = conf.Check(lp.PkgPath, fset, files, nil)
	if first != nil {
		return fmt.Errorf("mutant %s does not type-check: %s", m.ID, p.relErr(first))
	}
	return nil
}

// checkPkg is what the checks of a package's mutants share: the loaded
// syntax of all its files (including cgo-generated ones) and, built on
// first use, reduced copies (see reducedFiles).
type checkPkg struct {
	pkg    *types.Package
	files  []*ast.File
	tfiles []*token.File
	index  map[string]int // file name -> index in files
	// bodies[i] lists the function bodies of files[i], in source order.
	bodies [][]body
	// importUses[i] maps the offset of each import of files[i] to the
	// indices (in bodies[i]) of the bodies that use it.
	importUses []map[int][]int

	reduceOnce sync.Once
	reduced    []*ast.File

	dropOnce sync.Once
	drop     dropState // see checkdrop.go
}

// checkPkg returns pkg's shared check state, building it on first use.
func (p *Program) checkPkg(pkg *Package) *checkPkg {
	pkg.checkOnce.Do(func() {
		lp := pkg.pkg
		cp := &checkPkg{pkg: lp.Types, index: make(map[string]int, len(lp.Syntax))}
		for i, f := range lp.Syntax {
			tf := p.fset.File(f.FileStart)
			cp.files = append(cp.files, f)
			cp.tfiles = append(cp.tfiles, tf)
			cp.index[tf.Name()] = i
			var bodies []body
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					bodies = append(bodies, body{
						lbrace:   tf.Offset(fd.Body.Lbrace),
						rbrace:   tf.Offset(fd.Body.Rbrace),
						required: !bodyOptional(fd),
					})
				}
			}
			cp.bodies = append(cp.bodies, bodies)
		}
		cp.importUses = importUses(lp.Syntax, lp.TypesInfo, cp)
		pkg.check = cp
	})
	return pkg.check
}

// local reports whether edits (of file i, whose original content is src)
// all lie inside function bodies and add no reference to a package-level
// variable or function of the package that the edited function does not
// already mention. Such a mutant cannot change the package's
// declarations or its initialization dependencies.
func (cp *checkPkg) local(i int, src []byte, edits []Edit) bool {
	if len(edits) == 0 {
		return false
	}
	bodies := cp.bodies[i]
	scope := cp.pkg.Scope()
	for _, e := range edits {
		k := sort.Search(len(bodies), func(k int) bool { return bodies[k].rbrace >= e.End })
		if k == len(bodies) || e.Start <= bodies[k].lbrace {
			return false
		}
		var known map[string]bool
		for _, id := range identifiers(e.New) {
			if strings.HasPrefix(id, HelperPrefix) {
				continue // helpers depend on nothing of the package
			}
			switch scope.Lookup(id).(type) {
			case *types.Var, *types.Func:
			default:
				continue
			}
			if known == nil {
				b := bodies[k]
				known = make(map[string]bool)
				for _, id := range identifiers(string(src[b.lbrace:b.rbrace])) {
					known[id] = true
				}
			}
			if !known[id] {
				return false
			}
		}
	}
	return true
}

// importUses maps, for every file, the offset of each of its imports to
// the bodies (indices into cp.bodies) that refer to the imported package.
func importUses(files []*ast.File, info *types.Info, cp *checkPkg) []map[int][]int {
	out := make([]map[int][]int, len(files))
	for i := range out {
		out[i] = make(map[int][]int)
	}
	if info == nil {
		return out
	}
	type spec struct{ file, offset int }
	specs := make(map[types.Object]spec)
	for i, f := range files {
		for _, imp := range f.Imports {
			obj := info.Implicits[imp]
			if imp.Name != nil {
				obj = info.Defs[imp.Name]
			}
			if obj != nil {
				specs[obj] = spec{i, cp.tfiles[i].Offset(imp.Pos())}
			}
		}
	}
	for id, obj := range info.Uses {
		sp, ok := specs[obj]
		if !ok {
			continue
		}
		// A package name is used only in the file that imports it.
		off := cp.tfiles[sp.file].Offset(id.Pos())
		bodies := cp.bodies[sp.file]
		k := sort.Search(len(bodies), func(k int) bool { return bodies[k].rbrace >= off })
		if k < len(bodies) && bodies[k].lbrace < off && !slices.Contains(out[sp.file][sp.offset], k) {
			out[sp.file][sp.offset] = append(out[sp.file][sp.offset], k)
		}
	}
	return out
}

// A body is a function body's braces' offsets in its file.
type body struct {
	lbrace, rbrace int
	required       bool // see bodyOptional
}

// bodyOptional reports whether go/types accepts fd without its body: it is
// neither generic nor init.
func bodyOptional(fd *ast.FuncDecl) bool {
	return fd.Type.TypeParams == nil && !(fd.Recv == nil && fd.Name.Name == "init")
}

// blankBodies returns a copy of file i's original content src with the
// optional bodies (braces included) that no edit touches replaced by
// spaces, newlines kept: the same offsets, lines and columns, a smaller
// syntax tree.
func (cp *checkPkg) blankBodies(i int, src []byte, edits []Edit) []byte {
	out := append([]byte(nil), src...)
	for k, b := range cp.bodies[i] {
		if !cp.blanked(i, k, edits) {
			continue
		}
		for j := b.lbrace; j <= b.rbrace; j++ {
			if c := out[j]; c != '\n' && c != '\r' {
				out[j] = ' '
			}
		}
	}
	return out
}

// blanked reports whether blankBodies leaves out body k of file i.
func (cp *checkPkg) blanked(i, k int, edits []Edit) bool {
	b := cp.bodies[i][k]
	if b.required {
		return false
	}
	for _, e := range edits {
		if e.Start > b.lbrace && e.End <= b.rbrace {
			return false
		}
	}
	return true
}

// usedElsewhere reports whether the import at offset off of file i is used
// in a body blankBodies leaves out: the mutant did not change that use.
func (cp *checkPkg) usedElsewhere(i, off int, edits []Edit) bool {
	for _, k := range cp.importUses[i][off] {
		if cp.blanked(i, k, edits) {
			return true
		}
	}
	return false
}

// identifiers returns the identifiers in Go source text, in order.
func identifiers(src string) []string {
	var ids []string
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), func(token.Position, string) {}, 0)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return ids
		}
		if tok == token.IDENT {
			ids = append(ids, lit)
		}
	}
}

// reducedFiles returns the package's files without what a local mutant
// (see local) cannot affect: the bodies of ordinary function declarations
// (generic functions and init keep theirs, go/types requires them) and the
// initializers of package-level variables whose type is explicit or the
// type of a composite literal. The copies share everything else with the
// loaded syntax, which stays unchanged.
func (cp *checkPkg) reducedFiles() []*ast.File {
	cp.reduceOnce.Do(func() {
		cp.reduced = make([]*ast.File, len(cp.files))
		for i, f := range cp.files {
			nf := *f
			nf.Decls = make([]ast.Decl, len(f.Decls))
			for j, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Body != nil && bodyOptional(d) {
						nd := *d
						nd.Body = nil
						nf.Decls[j] = &nd
						continue
					}
				case *ast.GenDecl:
					if d.Tok == token.VAR {
						nf.Decls[j] = withoutInitializers(d)
						continue
					}
				}
				nf.Decls[j] = d
			}
			cp.reduced[i] = &nf
		}
	})
	return cp.reduced
}

// withoutInitializers returns d, or a copy of it without the initializers
// that do not determine their variables' types.
func withoutInitializers(d *ast.GenDecl) *ast.GenDecl {
	var specs []ast.Spec
	for k, s := range d.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok || len(vs.Values) == 0 {
			continue
		}
		typ := vs.Type
		if typ == nil && len(vs.Names) == 1 && len(vs.Values) == 1 {
			typ = literalType(vs.Values[0])
		}
		if typ == nil {
			continue
		}
		if specs == nil {
			specs = append([]ast.Spec(nil), d.Specs...)
		}
		nvs := *vs
		nvs.Type = typ
		nvs.Values = nil
		specs[k] = &nvs
	}
	if specs == nil {
		return d
	}
	nd := *d
	nd.Specs = specs
	return &nd
}

// literalType returns the type of a composite literal T{...} or its
// address &T{...} if it is written out (not elided, not [...]E), else nil.
func literalType(e ast.Expr) ast.Expr {
	var star token.Pos
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		star, e = u.OpPos, u.X
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok || cl.Type == nil {
		return nil
	}
	if at, ok := cl.Type.(*ast.ArrayType); ok && at.Len != nil {
		if _, ok := at.Len.(*ast.Ellipsis); ok {
			return nil
		}
	}
	if star.IsValid() {
		return &ast.StarExpr{Star: star, X: cl.Type}
	}
	return cl.Type
}
