package generate

import (
	"go/ast"
	"go/types"
	"path/filepath"
	"sort"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// A Target is a function whose mutants no benchmark killed: none ran it
// in its timed loop (no-coverage), or none noticed its slowdowns
// (survived), or none could tell (undecided).
type Target struct {
	Package  string      `json:"package"`  // import path
	Function string      `json:"function"` // as mutants name it: Lower, T.M, (*T).M
	File     string      `json:"file"`     // module-relative
	Line     int         `json:"line"`
	Mutants  []MutantRef `json:"mutants"`

	pkg  *mutate.Package
	decl *ast.FuncDecl
	obj  *types.Func
}

// A MutantRef is a mutant of a target with its status before.
type MutantRef struct {
	ID       string       `json:"id"`
	Operator string       `json:"operator"`
	File     string       `json:"file"`
	Line     int          `json:"line"`
	Before   score.Status `json:"before"`
}

// A Skipped is a function (or a type) no benchmark was generated for,
// and why.
type Skipped struct {
	Package  string `json:"package"`
	Function string `json:"function"`
	Reason   string `json:"reason"`
}

// targetStatus reports whether a mutant with status s is a target's: no
// benchmark ran it (no-coverage), or the benchmarks that did neither
// killed it nor, for an undecided one, ruled its slowdown out.
func targetStatus(s score.Status) bool {
	return s == score.NoCoverage || s == score.Survived || s == score.Undecided
}

// selectTargets groups the mutants whose status before is a target's by
// function; functions no benchmark can call are skipped with the reason.
func selectTargets(prog *mutate.Program, mutants []mutate.Mutant, before map[string]score.Status) ([]*Target, []Skipped) {
	decls := map[string]map[string]*ast.FuncDecl{}
	pkgs := map[string]*mutate.Package{}
	for _, p := range prog.Packages {
		pkgs[p.ImportPath] = p
		decls[p.ImportPath] = funcDecls(p)
	}
	byFunc := map[[2]string]*Target{}
	var targets []*Target
	var skipped []Skipped
	skip := map[[2]string]bool{}
	for _, m := range mutants {
		st, ok := before[m.ID]
		if !ok || !targetStatus(st) {
			continue
		}
		k := [2]string{m.Package, m.Function}
		if skip[k] {
			continue
		}
		t := byFunc[k]
		if t == nil {
			p := pkgs[m.Package]
			var fd *ast.FuncDecl
			if p != nil {
				fd = decls[m.Package][m.Function]
			}
			reason := ""
			switch {
			case m.Function == "init":
				reason = "init functions cannot be called"
			case fd == nil || p == nil:
				reason = "package-level code, not a function"
			case fd.Body == nil:
				reason = "a function without a Go body"
			}
			if reason != "" {
				skip[k] = true
				skipped = append(skipped, Skipped{Package: m.Package, Function: m.Function, Reason: reason})
				continue
			}
			t = &Target{Package: m.Package, Function: m.Function, pkg: p, decl: fd}
			t.obj, _ = p.TypesInfo().Defs[fd.Name].(*types.Func)
			pos := p.Fset().Position(fd.Pos())
			if rel, err := filepath.Rel(prog.Module.Dir, pos.Filename); err == nil {
				t.File = filepath.ToSlash(rel)
			}
			t.Line = pos.Line
			byFunc[k] = t
			targets = append(targets, t)
		}
		t.Mutants = append(t.Mutants, MutantRef{ID: m.ID, Operator: m.Operator, File: m.File, Line: m.Line, Before: st})
	}
	sort.SliceStable(targets, func(i, j int) bool {
		if targets[i].Package != targets[j].Package {
			return targets[i].Package < targets[j].Package
		}
		return targets[i].File < targets[j].File || targets[i].File == targets[j].File && targets[i].Line < targets[j].Line
	})
	return targets, skipped
}

// funcDecls are a package's function declarations by the name mutants
// give them.
func funcDecls(p *mutate.Package) map[string]*ast.FuncDecl {
	out := map[string]*ast.FuncDecl{}
	for _, f := range p.Syntax() {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				out[mutate.FuncName(fd)] = fd
			}
		}
	}
	return out
}
