package mutate

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/proc"
	"golang.org/x/tools/go/packages"
)

// Options says what to load and how to mutate it.
type Options struct {
	Dir       string   // module directory or a directory inside it (like go -C); "" = current
	Patterns  []string // package patterns, e.g. ./...; empty = ./...
	Tags      []string // build tags
	Config    *config.Config
	Operators []*Operator // the enabled operators (already filtered by config / -operators)
}

// Module describes the loaded main module.
type Module struct {
	Path      string // module path
	Dir       string // absolute module root
	GoVersion string // go directive
}

// Package is one loaded, in-scope package.
type Package struct {
	ImportPath string
	Name       string
	Dir        string   // absolute
	Imports    []string // direct imports that are packages of the main module
	Files      []string // absolute paths of the mutable files (no tests, no generated)

	pkg    *packages.Package
	syntax []*ast.File // parallel to Files

	checkOnce sync.Once
	check     *checkPkg
}

// Program is a loaded module, ready to generate mutants.
type Program struct {
	Module   Module
	Packages []*Package

	// Warnings are problems that did not stop generation, e.g. a package
	// whose own identifiers use the helper prefix (its helper-based mutants
	// are skipped) or an invalid site an operator reported. Generate sets
	// it.
	Warnings []string

	opts   Options
	cfg    *config.Config
	fset   *token.FileSet
	srcMu  sync.Mutex
	srcs   map[string][]byte            // absolute file name -> original content
	all    map[string]*packages.Package // every loaded package by import path
	byPath map[string]*Package          // in-scope packages by import path

	complete bool // the whole module was loaded (see Complete)

	helperOnce     sync.Once
	helperFiles    map[*Package]map[string]opHelper
	helperWarnings []string
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// Load loads the packages matching opts.Patterns with full type information.
//
// Packages outside the main module are type-checked from source without
// their function bodies (their declarations are all the mutated packages
// need), which keeps loading fast.
func Load(ctx context.Context, opts Options) (*Program, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, inputerr.Errorf("directory %s does not exist", dir)
	}
	env, err := goEnv(ctx, dir)
	if err != nil {
		return nil, err
	}
	root := env.root
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	p := &Program{
		opts:   opts,
		cfg:    cfg,
		fset:   token.NewFileSet(),
		srcs:   make(map[string][]byte),
		all:    make(map[string]*packages.Package),
		byPath: make(map[string]*Package),
	}
	pkgs, err := p.load(ctx, dir, patterns, env)
	if err != nil {
		return nil, err
	}
	var main *packages.Module
	for _, lp := range pkgs {
		if lp.Module != nil && lp.Module.Main {
			main = lp.Module
			break
		}
	}
	if main == nil {
		return nil, inputerr.Errorf("no packages of the module at %s match %s", root, strings.Join(patterns, " "))
	}
	p.Module = Module{Path: main.Path, Dir: main.Dir, GoVersion: main.GoVersion}
	if p.Module.Dir == "" {
		p.Module.Dir = root
	}
	p.complete = dir == p.Module.Dir && len(patterns) == 1 && patterns[0] == "./..."
	p.addPackages(pkgs, cfg.Packages)
	if len(p.Packages) == 0 {
		return nil, inputerr.Errorf("no packages of module %s match %s (after the config's packages include/exclude)", p.Module.Path, strings.Join(patterns, " "))
	}
	sort.Slice(p.Packages, func(i, j int) bool { return p.Packages[i].ImportPath < p.Packages[j].ImportPath })
	return p, nil
}

// load runs packages.Load in dir on patterns and the standard packages the
// operators' helpers import (helper files import packages the mutated
// package may not; Check must resolve them), records every package loaded
// in p.all, and returns the packages matching the patterns, or the first
// load error.
func (p *Program) load(ctx context.Context, dir string, patterns []string, env goEnvironment) ([]*packages.Package, error) {
	pcfg := &packages.Config{
		Context: ctx,
		Mode:    loadMode,
		Dir:     dir,
		Fset:    p.fset,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			return p.parseFile(fset, filename, src, env)
		},
	}
	if len(p.opts.Tags) > 0 {
		pcfg.BuildFlags = []string{"-tags=" + strings.Join(p.opts.Tags, ",")}
	}
	extra := map[string]bool{}
	for _, op := range p.opts.Operators {
		for _, imp := range op.HelperImports {
			extra[imp] = true
		}
	}
	loadPatterns := append([]string(nil), patterns...)
	for imp := range extra {
		loadPatterns = append(loadPatterns, imp)
	}
	sort.Strings(loadPatterns[len(patterns):])
	pkgs, err := packages.Load(pcfg, loadPatterns...)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, inputerr.Errorf("loading %s: %v", strings.Join(patterns, " "), oneLine(err.Error()))
	}
	packages.Visit(pkgs, nil, func(lp *packages.Package) {
		if lp.PkgPath != "" {
			p.all[lp.PkgPath] = lp
		}
	})
	for imp := range extra {
		if lp := p.all[imp]; lp == nil || lp.Types == nil || len(lp.GoFiles) == 0 {
			return nil, fmt.Errorf("an operator's helper imports %q, which is not a standard-library package", imp)
		}
	}
	if err := loadErrors(pkgs, extra, env.root); err != nil {
		return nil, err
	}
	return pkgs, nil
}

// parseFile parses a file for packages.Load: the module's files in full
// (recording their content), a dependency's without function bodies and
// variable initializers.
func (p *Program) parseFile(fset *token.FileSet, filename string, src []byte, env goEnvironment) (*ast.File, error) {
	root := env.root
	inModule := under(filename, root)
	if inModule {
		p.srcMu.Lock()
		p.srcs[filename] = src
		p.srcMu.Unlock()
	}
	if inModule || !under(filename, env.modcache) && !under(filename, env.goroot) {
		// The module's files, cgo-generated files in the build
		// cache, local replacements: keep everything.
		f, err := parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if f != nil && inModule {
			elideData(f)
		}
		return f, err
	}
	// A dependency: only its declarations matter.
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if f != nil {
		for i, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				d.Body = nil
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					f.Decls[i] = withoutInitializers(d)
				}
			}
		}
	}
	return f, err
}

// loadErrors returns the first error of the loaded packages that is the
// input's fault: a pattern matching nothing, a package of the module that
// does not type-check. Packages outside the module were type-checked
// without bodies and the helper imports (extra) only need their types.
func loadErrors(pkgs []*packages.Package, extra map[string]bool, root string) error {
	for _, lp := range pkgs {
		if extra[lp.PkgPath] && (lp.Module == nil || !lp.Module.Main) {
			continue
		}
		if len(lp.Errors) > 0 && lp.Module != nil && !lp.Module.Main {
			continue // outside the module: type-checked without bodies
		}
		if lp.Module == nil && len(lp.GoFiles) > 0 {
			continue // the standard library
		}
		if len(lp.Errors) > 0 {
			e := lp.Errors[0]
			if len(lp.GoFiles) == 0 && len(lp.CompiledGoFiles) == 0 && e.Kind == packages.ListError {
				msg := oneLine(e.Msg)
				if pat, detail, ok := strings.Cut(strings.TrimPrefix(msg, "pattern "), ": "); ok && strings.HasPrefix(msg, "pattern ") {
					return inputerr.Errorf("pattern %s matches no packages (%s); patterns are relative to the module directory (-C), e.g. ./... or ./pkg/...", pat, detail)
				}
				// A directory that does not exist or holds no Go files, an
				// import path no module provides (go's advice to go get it
				// does not apply: perfmut mutates the main module).
				msg, _, _ = strings.Cut(msg, "; to add it")
				return inputerr.Errorf("pattern %s matches no package (%s); patterns are relative to the module directory (-C), e.g. ./... or ./pkg/...", lp.PkgPath, msg)
			}
			msg := strings.TrimPrefix(oneLine(e.Error()), root+string(filepath.Separator))
			return inputerr.Errorf("package %s does not type-check: %s; fix it so that 'go build' succeeds", lp.PkgPath, msg)
		}
	}
	return nil
}

// addPackages adds the main module's packages in scope, with their
// mutable files.
func (p *Program) addPackages(pkgs []*packages.Package, scope config.Packages) {
	for _, lp := range pkgs {
		if lp.Module == nil || !lp.Module.Main || lp.Types == nil {
			continue
		}
		if !inScope(lp.PkgPath, p.Module.Path, scope) {
			continue
		}
		if _, dup := p.byPath[lp.PkgPath]; dup {
			continue
		}
		pkg := &Package{ImportPath: lp.PkgPath, Name: lp.Name, pkg: lp}
		switch {
		case lp.Dir != "": // also for a package with only test files
			pkg.Dir = lp.Dir
		case len(lp.GoFiles) > 0:
			pkg.Dir = filepath.Dir(lp.GoFiles[0])
		case len(lp.CompiledGoFiles) > 0:
			pkg.Dir = filepath.Dir(lp.CompiledGoFiles[0])
		}
		for path, imp := range lp.Imports {
			if imp.Module != nil && imp.Module.Main {
				pkg.Imports = append(pkg.Imports, path)
			}
		}
		sort.Strings(pkg.Imports)
		for _, f := range lp.Syntax {
			name := p.fset.File(f.FileStart).Name()
			if p.mutable(name, f) {
				pkg.Files = append(pkg.Files, name)
				pkg.syntax = append(pkg.syntax, f)
			}
		}
		p.Packages = append(p.Packages, pkg)
		p.byPath[pkg.ImportPath] = pkg
	}
}

// ModuleRoot returns the root of the module containing dir, or an
// *inputerr.Error if dir is not inside a module.
func ModuleRoot(ctx context.Context, dir string) (string, error) {
	env, err := goEnv(ctx, dir)
	if err != nil {
		return "", err
	}
	return env.root, nil
}

// goEnvironment is what Load needs from go env.
type goEnvironment struct {
	root             string // module root
	goroot, modcache string // trees whose packages are dependencies
}

// goEnv runs go env in dir.
func goEnv(ctx context.Context, dir string) (goEnvironment, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := proc.Command(ctx, dir, nil, "go", "env", "GOMOD", "GOROOT", "GOMODCACHE")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return goEnvironment{}, ctx.Err()
		}
		return goEnvironment{}, fmt.Errorf("running go env in %s: %v: %s", dir, err, oneLine(stderr.String()))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for len(lines) < 3 {
		lines = append(lines, "")
	}
	gomod := strings.TrimSpace(lines[0])
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if gomod == "" || gomod == os.DevNull {
		return goEnvironment{}, inputerr.Errorf("%s is not inside a Go module (no go.mod found); run perfmut in a module or pass -C <module dir>", dir)
	}
	return goEnvironment{
		root:     filepath.Dir(gomod),
		goroot:   strings.TrimSpace(lines[1]),
		modcache: strings.TrimSpace(lines[2]),
	}, nil
}

// under reports whether path lies in the directory tree dir.
func under(path, dir string) bool {
	return dir != "" && strings.HasPrefix(path, dir+string(filepath.Separator))
}

// mutable reports whether the file name (with syntax f) may be mutated.
func (p *Program) mutable(name string, f *ast.File) bool {
	if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
		return false
	}
	rel, err := filepath.Rel(p.Module.Dir, name)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false // e.g. cgo-generated files in the build cache
	}
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		if seg == "vendor" || seg == "testdata" {
			return false
		}
	}
	if _, ok := p.srcs[name]; !ok {
		return false
	}
	if ast.IsGenerated(f) {
		return false
	}
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			return false
		}
	}
	if f.Doc != nil && hasIgnore(f.Doc) {
		return false
	}
	return true
}

// inScope applies the config's include/exclude import-path patterns;
// patterns starting with ./ are relative to the module path.
func inScope(path, modPath string, s config.Packages) bool {
	if len(s.Include) > 0 {
		ok := false
		for _, pat := range s.Include {
			if matchPattern(absPattern(pat, modPath), path) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, pat := range s.Exclude {
		if matchPattern(absPattern(pat, modPath), path) {
			return false
		}
	}
	return true
}

// matchPattern matches an import path against a pattern as go list does for
// the simple cases: an exact path, or a prefix ending in /... that also
// matches the prefix itself.
func matchPattern(pat, path string) bool {
	if prefix, ok := strings.CutSuffix(pat, "/..."); ok {
		return path == prefix || strings.HasPrefix(path, prefix+"/")
	}
	if pat == "..." {
		return true
	}
	return pat == path
}

// absPattern makes a ./-relative pattern absolute under the module path.
func absPattern(pat, modPath string) string {
	if pat == "." || pat == "./..." {
		return modPath + strings.TrimPrefix(pat, ".")
	}
	if rest, ok := strings.CutPrefix(pat, "./"); ok {
		return modPath + "/" + rest
	}
	return pat
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// source returns the original content of an absolute file name.
func (p *Program) source(name string) ([]byte, bool) {
	p.srcMu.Lock()
	defer p.srcMu.Unlock()
	src, ok := p.srcs[name]
	return src, ok
}
