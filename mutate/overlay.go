package mutate

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// paths returns the absolute paths of m's mutated file and helper file
// ("" if none), and its package.
func (p *Program) paths(m Mutant) (file, helper string, pkg *Package, err error) {
	pkg = p.byPath[m.Package]
	if pkg == nil {
		return "", "", nil, fmt.Errorf("mutant %s: package %s is not loaded", m.ID, m.Package)
	}
	file = filepath.Join(p.Module.Dir, filepath.FromSlash(m.File))
	if m.HelperFile != "" {
		helper = filepath.Join(pkg.Dir, m.HelperFile)
	}
	return file, helper, pkg, nil
}

// mutated returns m's file name, original content and mutated content.
func (p *Program) mutated(m Mutant) (name string, orig, mut []byte, err error) {
	name, _, _, err = p.paths(m)
	if err != nil {
		return "", nil, nil, err
	}
	orig, ok := p.source(name)
	if !ok {
		return "", nil, nil, fmt.Errorf("mutant %s: %s is not a loaded file", m.ID, m.File)
	}
	mut, err = m.Apply(orig)
	if err != nil {
		return "", nil, nil, fmt.Errorf("mutant %s: %v", m.ID, err)
	}
	return name, orig, mut, nil
}

// Overlay returns what building m needs replaced or added: absolute path ->
// content (the mutated file, and the helper file if any). Use it to write
// a go build -overlay JSON.
func (p *Program) Overlay(m Mutant) (map[string][]byte, error) {
	name, _, mut, err := p.mutated(m)
	if err != nil {
		return nil, err
	}
	ov := map[string][]byte{name: mut}
	if _, helper, _, _ := p.paths(m); helper != "" {
		ov[helper] = []byte(m.Helper)
	}
	return ov, nil
}

// Diff returns m's unified diff with module-relative paths (a/F, b/F). A
// helper file appears as a new file.
func (p *Program) Diff(m Mutant) (string, error) {
	_, orig, mut, err := p.mutated(m)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(UnifiedDiff("a/"+m.File, "b/"+m.File, string(orig), string(mut)))
	if m.HelperFile != "" {
		_, helper, _, _ := p.paths(m)
		rel, err := filepath.Rel(p.Module.Dir, helper)
		if err != nil {
			return "", err
		}
		b.WriteString(UnifiedDiff("/dev/null", "b/"+filepath.ToSlash(rel), "", m.Helper))
	}
	return b.String(), nil
}

// Check type-checks the mutated package in-process; nil if it compiles.
// Only the mutated file and the helper file are parsed afresh; the
// package's other files are reused as loaded (go/types does not modify
// syntax trees, so concurrent checks may share them), and imports resolve
// to the loaded packages. Check is safe for concurrent use.
//
// When every edit lies inside a function body, the package-level
// declarations are those of the loaded package (which compiled), so the
// other files' function bodies cannot be affected by the mutant: they are
// left out of the check (see checkPkg.stripped), which makes checking a
// mutant of a package with large files cheap.
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

// check is Check; skipBodies=false always checks the other files' bodies.
func (p *Program) check(m Mutant, skipBodies bool) error {
	name, _, mut, err := p.mutated(m)
	if err != nil {
		return err
	}
	_, helper, pkg, _ := p.paths(m)
	cp := p.checkPkg(pkg)
	fi, ok := cp.index[name]
	if !ok {
		return fmt.Errorf("mutant %s: %s is not a file of package %s", m.ID, m.File, m.Package)
	}
	others := cp.files
	stripped := skipBodies && cp.inBodies(fi, m.Edits)
	if stripped {
		others = cp.strippedFiles()
	}
	// A private file set: the loaded files' token.Files plus fresh ones for
	// the mutated and helper files, so the shared set does not grow with
	// every check.
	fset := token.NewFileSet()
	fset.AddExistingFiles(cp.tfiles...)
	files := make([]*ast.File, 0, len(others)+1)
	for i, f := range others {
		if i == fi {
			pf, err := parser.ParseFile(fset, name, mut, parser.SkipObjectResolution)
			if err != nil {
				return fmt.Errorf("mutant %s does not parse: %v", m.ID, p.relErr(err))
			}
			f = pf
		}
		files = append(files, f)
	}
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
			// Without their bodies, the other files may not use all
			// their imports; that is not the mutant's doing.
			if te, ok := err.(types.Error); ok && stripped && te.Soft && strings.HasSuffix(te.Msg, "and not used") {
				if tf := te.Fset.File(te.Pos); tf != nil && tf.Name() != name && tf.Name() != helper {
					return
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

// checkPkg is what checking a package's mutants shares: the loaded syntax
// of all its files (including cgo-generated ones) and, built on first use,
// copies without function bodies.
type checkPkg struct {
	files  []*ast.File
	tfiles []*token.File
	index  map[string]int // file name -> index in files
	// bodies[i] lists the function bodies of files[i] as offset ranges
	// [Lbrace+1, Rbrace), in source order.
	bodies [][][2]int

	stripOnce sync.Once
	stripped  []*ast.File
}

// checkPkg returns pkg's shared check state, building it on first use.
func (p *Program) checkPkg(pkg *Package) *checkPkg {
	pkg.checkOnce.Do(func() {
		lp := pkg.pkg
		cp := &checkPkg{index: make(map[string]int, len(lp.Syntax))}
		for i, f := range lp.Syntax {
			tf := p.fset.File(f.FileStart)
			cp.files = append(cp.files, f)
			cp.tfiles = append(cp.tfiles, tf)
			cp.index[tf.Name()] = i
			var bodies [][2]int
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					bodies = append(bodies, [2]int{tf.Offset(fd.Body.Lbrace) + 1, tf.Offset(fd.Body.Rbrace)})
				}
			}
			cp.bodies = append(cp.bodies, bodies)
		}
		pkg.check = cp
	})
	return pkg.check
}

// inBodies reports whether every edit lies inside a function body of
// file i.
func (cp *checkPkg) inBodies(i int, edits []Edit) bool {
	bodies := cp.bodies[i]
	for _, e := range edits {
		k := sort.Search(len(bodies), func(k int) bool { return bodies[k][1] >= e.End })
		if k == len(bodies) || e.Start < bodies[k][0] {
			return false
		}
	}
	return len(edits) > 0
}

// strippedFiles returns the package's files with the bodies of ordinary
// function declarations left out. Generic functions and init keep theirs
// (go/types requires them; methods of generic types need none); function
// literals outside functions stay.
// The copies share everything else with the loaded syntax.
func (cp *checkPkg) strippedFiles() []*ast.File {
	cp.stripOnce.Do(func() {
		cp.stripped = make([]*ast.File, len(cp.files))
		for i, f := range cp.files {
			nf := *f
			nf.Decls = make([]ast.Decl, len(f.Decls))
			for j, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if ok && fd.Body != nil && fd.Type.TypeParams == nil && !(fd.Recv == nil && fd.Name.Name == "init") {
					nfd := *fd
					nfd.Body = nil
					d = &nfd
				}
				nf.Decls[j] = d
			}
			cp.stripped[i] = &nf
		}
	})
	return cp.stripped
}

// relErr renders a type error with a module-relative position.
func (p *Program) relErr(err error) string {
	msg := firstLine(err)
	if rel, e := filepath.Rel(p.Module.Dir, msg); e == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return msg
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func firstLine(err error) string { return oneLine(err.Error()) }
