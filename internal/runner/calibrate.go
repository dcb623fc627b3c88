package runner

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// nullFile is the base name of the file a null mutant adds to a package.
const nullFile = "perfmut_calibrate_null.go"

// A Calibration is perfmut calibrate: it measures the false-kill rate of
// its Campaign's measurement and kill rule on this machine with A/A
// trials: the baseline against itself and against null mutants (an added
// function that changes the binary's layout but not the work), Trials of
// each kind per level, at sites of the Campaign's Mutants that benchmarks
// run in their timed loops. The trials run as an ordinary Campaign;
// report.TallyCalibration and report.WriteCalibration turn its report into
// rates with exact intervals.
type Calibration struct {
	// Campaign is what the trials run as: Mutants are the candidates whose
	// sites trials take; Out "" runs them in a temporary directory.
	Campaign Campaign
	// Dir is the directory the package patterns (Settings.Patterns) are
	// relative to.
	Dir    string
	Trials int      // trials of each kind per level
	Kinds  []string // results.TrialSelf and/or results.TrialNull
}

// ParseKinds turns calibrate's -kinds both|self|null into trial kinds.
func ParseKinds(s string) ([]string, error) {
	switch s {
	case "both":
		return []string{results.TrialSelf, results.TrialNull}, nil
	case "self":
		return []string{results.TrialSelf}, nil
	case "null":
		return []string{results.TrialNull}, nil
	}
	return nil, fmt.Errorf("bad -kinds %q: want both, self or null", s)
}

// Calibrate places the trials and runs them as a campaign. Without sites
// to place them at it returns an *inputerr.Error.
func (c *Calibration) Calibrate(ctx context.Context) (*results.Report, error) {
	cc := c.Campaign // the caller's Campaign is not changed
	logf := func(format string, args ...any) {
		if cc.Log != nil {
			fmt.Fprintf(cc.Log, format+"\n", args...)
		}
	}
	patterns := cc.Settings.Patterns
	// Trials only measure at sites a benchmark runs: keep those, when the
	// benchmarks' coverage can be had.
	var keep func(calibrationSite) bool
	if timed, err := engine.TimedBlocks(ctx, c.Dir, cc.Module.Path, patterns, cc.Tags, cc.SkipBench); err != nil {
		logf("perfmut calibrate: warning: no benchmark coverage (%v); trials go to every mutation site, and those no benchmark runs are not measured", err)
	} else {
		keep = func(s calibrationSite) bool {
			return slices.ContainsFunc(timed[s.Package+"/"+path.Base(s.File)], func(b engine.CovBlock) bool { return b.Contains(s.Line, s.Column) })
		}
	}
	// Candidate sites: each mutant's position and its first edit's (for a
	// loop mutant, the loop statement and the start of its body).
	candidates := append(slices.Clone(cc.Mutants), atFirstEdit(cc.Module.Dir, cc.Mutants)...)
	sites := calibrationSites(candidates, c.Trials, cc.Seed, keep)
	if len(sites) == 0 {
		return nil, &inputerr.Error{Err: fmt.Errorf("no mutation sites in %s to calibrate at; give packages with code their benchmarks run", strings.Join(patterns, " "))}
	}
	pkgs := map[string]*mutate.Package{}
	for _, p := range cc.Packages {
		pkgs[p.ImportPath] = p
	}
	cc.Mutants = nil
	for _, k := range c.Kinds {
		cc.Mutants = append(cc.Mutants, trialsOf(k, sites, pkgs)...)
	}
	cc.Overlay = func(m mutate.Mutant) (map[string][]byte, error) { return trialOverlay(m, pkgs) }
	cc.Diff = nil
	cc.Settings.Operators = c.Kinds
	cc.KeepEquivalent = true // the trials compile to the baseline's code on purpose
	distinct := map[calibrationSite]bool{}
	for _, s := range sites {
		distinct[s] = true
	}
	logf("perfmut calibrate: %d trials (%s) at %d sites in %s", len(cc.Mutants), strings.Join(c.Kinds, ", "), len(distinct), cc.Module.Path)
	if cc.Out == "" {
		tmp, err := os.MkdirTemp("", "perfmut-calibrate-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		cc.Out = tmp
		rep, err := cc.Run(ctx)
		if err != nil && ctx.Err() != nil {
			return nil, errors.New("interrupted; the trials are discarded (run with -out DIR to keep them, then -resume to continue)")
		}
		return rep, err
	}
	return cc.Run(ctx)
}

// A calibrationSite is a position where trials are placed: the sites of
// real mutants, so that the benchmarks that reach them are measured.
type calibrationSite struct {
	Package, File, Function string
	Line, Column            int
}

// calibrationSites picks k mutant positions, seeded, among those keep
// accepts (all when keep is nil or accepts none); positions of
// effect-simulation (Q3) operators come first, as they are at the start of
// loop bodies, where benchmarks spend their time. With fewer sites than k,
// sites repeat.
func calibrationSites(ms []mutate.Mutant, k int, seed int64, keep func(calibrationSite) bool) []calibrationSite {
	if keep != nil && !slices.ContainsFunc(ms, func(m mutate.Mutant) bool {
		return keep(calibrationSite{m.Package, m.File, m.Function, m.Line, m.Column})
	}) {
		keep = nil
	}
	seen := map[calibrationSite]bool{}
	var q3, rest []calibrationSite
	for _, m := range ms {
		s := calibrationSite{m.Package, m.File, m.Function, m.Line, m.Column}
		if seen[s] || keep != nil && !keep(s) {
			continue
		}
		seen[s] = true
		if m.Quadrant == mutate.Q3 {
			q3 = append(q3, s)
		} else {
			rest = append(rest, s)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	rng.Shuffle(len(q3), func(i, j int) { q3[i], q3[j] = q3[j], q3[i] })
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	all := append(q3, rest...)
	if len(all) == 0 {
		return nil
	}
	out := make([]calibrationSite, k)
	for i := range out {
		out[i] = all[i%len(all)]
	}
	return out
}

// atFirstEdit returns the mutants with their position moved to their first
// edit (read from the source under root): an effect-simulation mutant's
// position is its loop statement, but its edit is inside the loop body,
// the code the benchmark runs in its timed loop and where a trial should
// sit.
func atFirstEdit(root string, ms []mutate.Mutant) []mutate.Mutant {
	srcs := map[string][]byte{}
	out := make([]mutate.Mutant, len(ms))
	for i, m := range ms {
		out[i] = m
		if len(m.Edits) == 0 {
			continue
		}
		src, ok := srcs[m.File]
		if !ok {
			src, _ = os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
			srcs[m.File] = src
		}
		off := slices.MinFunc(m.Edits, func(a, b mutate.Edit) int { return a.Start - b.Start }).Start
		if off < 0 || off > len(src) {
			continue
		}
		out[i].Line, out[i].Column = mutate.LineCol(src, off)
	}
	return out
}

// trialsOf makes one trial mutant of kind per site.
func trialsOf(kind string, sites []calibrationSite, pkgs map[string]*mutate.Package) []mutate.Mutant {
	var out []mutate.Mutant
	for i, s := range sites {
		m := mutate.Mutant{
			Operator: kind, Package: s.Package, File: s.File, Line: s.Line, Column: s.Column, Function: s.Function,
		}
		switch kind {
		case results.TrialSelf:
			m.ID = fmt.Sprintf("aa-self-%03d", i+1)
			m.Description = "baseline against itself (an identical binary)"
		case results.TrialNull:
			m.ID = fmt.Sprintf("aa-null-%03d", i+1)
			m.Description = fmt.Sprintf("null mutant: an unused function of %d statements added to %s", i%16+1, s.Package)
			if p := pkgs[s.Package]; p != nil {
				m.HelperFile = nullFile
				m.Helper = nullHelper(p.Name, i)
			}
		}
		out = append(out, m)
	}
	return out
}

// nullHelper is the file a null mutant adds: a function of a size that
// varies with i, kept in the binary by an init function (so the linker
// cannot drop it and the layout of the code after it shifts) but never
// called while a benchmark runs.
func nullHelper(pkgName string, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by perfmut calibrate. DO NOT EDIT.\n\npackage %s\n\n", pkgName)
	b.WriteString("var perfmut_nullKeep func(int) int\n\nfunc init() { perfmut_nullKeep = perfmut_null }\n\n")
	b.WriteString("func perfmut_null(n int) int {\n\ts := n\n")
	for j := 0; j <= i%16; j++ {
		fmt.Fprintf(&b, "\ts = s*%d + %d\n", 2*j+3, i+j)
	}
	b.WriteString("\treturn s\n}\n")
	return b.String()
}

// trialOverlay is the overlay of a trial: nothing for the baseline against
// itself, the null file for a null mutant.
func trialOverlay(m mutate.Mutant, pkgs map[string]*mutate.Package) (map[string][]byte, error) {
	if m.Helper == "" {
		return map[string][]byte{}, nil
	}
	p := pkgs[m.Package]
	if p == nil {
		return nil, fmt.Errorf("trial %s: package %s not loaded", m.ID, m.Package)
	}
	path := filepath.Join(p.Dir, m.HelperFile)
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("trial %s: %s already exists in the module", m.ID, path)
	}
	return map[string][]byte{path: []byte(m.Helper)}, nil
}
