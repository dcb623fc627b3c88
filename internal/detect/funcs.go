package detect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/perfmut/perfmut/mutate"
	"golang.org/x/tools/cover"
)

// span is a function declaration's lines in one file.
type span struct {
	start, end int
	key        string
}

// A FuncID names a function as perfmut list does: its package's import
// path and Name (Lower, T.M or (*T).M).
type FuncID struct{ Package, Name string }

// Key is the function's key in Shares and the coverage maps:
// importpath.Name.
func (f FuncID) Key() string { return f.Package + "." + f.Name }

// funcIndex maps source lines of the packages in scope to their functions.
type funcIndex struct {
	funcs []FuncID
	files map[string][]span // "importpath/base.go" -> spans, by start
}

// newIndex parses the packages' files and indexes their function
// declarations (those with a body).
func newIndex(pkgs []*mutate.Package) (*funcIndex, error) {
	ix := &funcIndex{files: map[string][]span{}}
	fset := token.NewFileSet()
	seen := map[FuncID]bool{} // a package's init functions share a row
	for _, p := range pkgs {
		for _, name := range p.Files {
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			key := path.Join(p.ImportPath, filepath.Base(name))
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				id := FuncID{p.ImportPath, mutate.FuncName(fd)}
				if !seen[id] {
					seen[id] = true
					ix.funcs = append(ix.funcs, id)
				}
				ix.files[key] = append(ix.files[key], span{fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line, id.Key()})
			}
		}
	}
	sort.Slice(ix.funcs, func(i, j int) bool { return ix.funcs[i].Key() < ix.funcs[j].Key() })
	return ix, nil
}

// Funcs lists the functions in scope, sorted.
func (ix *funcIndex) Funcs() []FuncID { return ix.funcs }

// Packages lists the import paths in scope.
func importPaths(pkgs []*mutate.Package) []string {
	out := make([]string, len(pkgs))
	for i, p := range pkgs {
		out[i] = p.ImportPath
	}
	return out
}

// at returns the function holding line of file, or "".
func (ix *funcIndex) at(file string, line int) string {
	for _, s := range ix.files[file] {
		if s.start <= line && line <= s.end {
			return s.key
		}
	}
	return ""
}

// CoverCounts sums a count-mode coverage profile's block counts by
// function.
func (ix *funcIndex) CoverCounts(profiles []*cover.Profile) map[string]int64 {
	out := map[string]int64{}
	for _, p := range profiles {
		for _, b := range p.Blocks {
			if fn := ix.at(p.FileName, b.StartLine); fn != "" && b.Count > 0 {
				out[fn] += int64(b.Count)
			}
		}
	}
	return out
}

// growth compares the per-function counts of two coverage runs of one
// benchmark, at a small and a larger b.N: ran holds the functions run in
// either, grows those run more often in the larger.
func growth(small, large map[string]int64) (ran, grows map[string]bool) {
	ran, grows = map[string]bool{}, map[string]bool{}
	for fn, c := range large {
		if c > 0 || small[fn] > 0 {
			ran[fn] = true
		}
		if c > small[fn] {
			grows[fn] = true
		}
	}
	for fn, c := range small {
		if c > 0 {
			ran[fn] = true
		}
	}
	return ran, grows
}

// blockKey is a coverage block's key in BenchResult.PerOp: its file
// ("importpath/file.go", as coverage profiles name it) and start.
func blockKey(file string, line, col int) string {
	return file + ":" + strconv.Itoa(line) + "." + strconv.Itoa(col)
}

// BlockCounts sums a count-mode coverage profile's counts by block, for
// the blocks in functions in scope that ran.
func (ix *funcIndex) BlockCounts(profiles []*cover.Profile) map[string]int64 {
	out := map[string]int64{}
	for _, p := range profiles {
		for _, b := range p.Blocks {
			if b.Count > 0 && ix.at(p.FileName, b.StartLine) != "" {
				out[blockKey(p.FileName, b.StartLine, b.StartCol)] += int64(b.Count)
			}
		}
	}
	return out
}

// perOp is each block's executions per benchmark iteration from its
// counts at two b.N that differ by dn: (large - small) / dn, for the
// blocks that grow.
func perOp(small, large map[string]int64, dn int) map[string]float64 {
	out := map[string]float64{}
	for k, c := range large {
		if c > small[k] {
			out[k] = float64(c-small[k]) / float64(dn)
		}
	}
	return out
}
