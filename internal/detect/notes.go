package detect

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"sort"

	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/mutate"
)

// DefaultWarnFactor is the factor above which a changed function's note
// is a warning: a slowdown of it by that much or less goes unnoticed by
// every benchmark (docs/sensitivity.md says how it was chosen).
const DefaultWarnFactor = 2

// A Note says what protects one changed function: the factor of its row
// and the benchmark that protects it best, or that none does.
type Note struct {
	Function  string   `json:"function"` // importpath.Func
	Status    Status   `json:"status"`
	Factor    *float64 `json:"factor"` // nil for never and set-up only
	AtLeast   bool     `json:"at_least,omitempty"`
	Benchmark string   `json:"benchmark,omitempty"`
	Share     float64  `json:"share,omitempty"`
	// Warning: no benchmark times the function, or its factor is above
	// the threshold.
	Warning bool   `json:"warning"`
	Text    string `json:"text"`
}

// Notes returns one note per changed function that has a row in m, in
// the order of changed; a factor above warn (DefaultWarnFactor when 0)
// makes a warning, and so do never and set-up only.
func Notes(m *Map, changed []FuncID, warn float64) []Note {
	if warn <= 0 {
		warn = DefaultWarnFactor
	}
	var out []Note
	for _, id := range changed {
		r, ok := m.Row(id.Key())
		if !ok {
			continue
		}
		n := Note{Function: id.Key(), Status: r.Status, Factor: r.Factor, AtLeast: r.AtLeast, Benchmark: r.Benchmark, Share: r.Share}
		switch {
		case r.Status == Never:
			n.Warning, n.Text = true, fmt.Sprintf("%s: no benchmark runs it: no slowdown of it would be noticed", id.Key())
		case r.Status == SetUp:
			n.Warning, n.Text = true, fmt.Sprintf("%s: set-up only: benchmarks run it only before their timed loop, so no slowdown of it changes their times", id.Key())
		default:
			n.Warning = *r.Factor > warn
			factor := fmt.Sprintf("x%.3g", *r.Factor)
			where := fmt.Sprintf("by %s (%.1f%% of its time)", path.Base(r.Benchmark), 100*r.Share)
			if r.AtLeast {
				factor += " or more"
				where = fmt.Sprintf("by %s (no profile sample fell in it)", path.Base(r.Benchmark))
			}
			n.Text = fmt.Sprintf("%s: a slowdown of %s is caught %s", id.Key(), factor, where)
			if n.Warning {
				n.Text = fmt.Sprintf("%s: only a slowdown of %s, above the warning threshold x%.3g, is caught, %s", id.Key(), factor, warn, where)
			}
		}
		out = append(out, n)
	}
	return out
}

// NotesSince returns the notes (Notes) of the functions of pkgs with a
// line added or changed since git revision rev (changes.Lines) in the
// module at moduleDir.
func NotesSince(ctx context.Context, pkgs []*mutate.Package, moduleDir, rev string, m *Map, warn float64) ([]Note, error) {
	lines, err := changes.Lines(ctx, moduleDir, rev)
	if err != nil {
		return nil, err
	}
	changed, err := changedFuncs(pkgs, moduleDir, lines)
	if err != nil {
		return nil, err
	}
	return Notes(m, changed, warn), nil
}

// changedFuncs returns the functions of pkgs whose declarations hold a
// line in lines (changes.Lines: module-relative slash paths), sorted;
// moduleDir is the module's root directory.
func changedFuncs(pkgs []*mutate.Package, moduleDir string, lines map[string][]changes.Range) ([]FuncID, error) {
	ix, err := newIndex(pkgs)
	if err != nil {
		return nil, err
	}
	ids := map[string]FuncID{}
	for _, id := range ix.funcs {
		ids[id.Key()] = id
	}
	seen := map[string]bool{}
	var out []FuncID
	err = ix.eachDecl(pkgs, moduleDir, func(rel string, s span) {
		if !seen[s.key] && overlaps(lines[rel], s.start, s.end) {
			seen[s.key] = true
			out = append(out, ids[s.key])
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out, err
}

// eachDecl calls f with every function declaration of pkgs and its
// file, relative to moduleDir (slash-separated).
func (ix *funcIndex) eachDecl(pkgs []*mutate.Package, moduleDir string, f func(rel string, s span)) error {
	for _, p := range pkgs {
		for _, file := range p.Files {
			rel, err := filepath.Rel(moduleDir, file)
			if err != nil {
				return err
			}
			for _, s := range ix.files[path.Join(p.ImportPath, filepath.Base(file))] {
				f(filepath.ToSlash(rel), s)
			}
		}
	}
	return nil
}

// overlaps reports whether some range in rs holds a line of start..end.
func overlaps(rs []changes.Range, start, end int) bool {
	for _, r := range rs {
		if r.Start <= end && start <= r.End {
			return true
		}
	}
	return false
}

// A Position is where a function is declared: its file relative to the
// module's root (slash-separated) and the line of its func keyword.
type Position struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Positions returns the declaration of every function of pkgs, by
// FuncID.Key; a package's init functions share the first one's.
// moduleDir is the module's root directory.
func Positions(pkgs []*mutate.Package, moduleDir string) (map[string]Position, error) {
	ix, err := newIndex(pkgs)
	if err != nil {
		return nil, err
	}
	out := map[string]Position{}
	err = ix.eachDecl(pkgs, moduleDir, func(rel string, s span) {
		if _, ok := out[s.key]; !ok {
			out[s.key] = Position{rel, s.start}
		}
	})
	return out, err
}
