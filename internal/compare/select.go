package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// A listedPackage is one package of the module as go list shows it.
type listedPackage struct {
	ImportPath, Name, Dir           string
	TestGoFiles, XTestGoFiles       []string
	IgnoredGoFiles                  []string // excluded by build constraints
	Deps, TestImports, XTestImports []string
	Module                          *struct{ Path string }
	Error                           *struct{ Err string }
}

// listPackages lists the packages of the module in dir matching patterns
// (go list -json), and the module path.
func listPackages(ctx context.Context, dir string, tags, patterns []string) ([]listedPackage, string, error) {
	args := []string{"list", "-e", "-json=ImportPath,Name,Dir,TestGoFiles,XTestGoFiles,IgnoredGoFiles,Deps,TestImports,XTestImports,Module,Error"}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	args = append(args, "--")
	args = append(args, patterns...)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := proc.Command(ctx, dir, nil, "go", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return nil, "", inputerr.Errorf("go list %s: %s", strings.Join(patterns, " "), engine.LastLines(stderr.Bytes(), 2))
	}
	var out []listedPackage
	modPath := ""
	dec := json.NewDecoder(&stdout)
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, "", fmt.Errorf("reading go list output: %w", err)
		}
		if p.Error != nil {
			return nil, "", inputerr.Errorf("package %s: %s", p.ImportPath, firstLineOf(p.Error.Err))
		}
		if p.Module == nil {
			continue // the standard library
		}
		modPath = p.Module.Path
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, "", inputerr.Errorf("no packages of the module match %s", strings.Join(patterns, " "))
	}
	return out, modPath, nil
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// hasTestFiles reports whether go test -c makes a binary for p.
func (p listedPackage) hasTestFiles() bool { return len(p.TestGoFiles)+len(p.XTestGoFiles) > 0 }

// changedPackages maps the changed non-test Go files of one side (module
// relative) to the import paths of their packages.
func changedPackages(modPath string, files map[string][]changes.Range) map[string][]string {
	out := map[string][]string{}
	for f := range files {
		if !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
			continue
		}
		ip := importPathOf(modPath, f)
		out[ip] = append(out[ip], f)
	}
	return out
}

// importPathOf is the import path of the package holding the module
// relative file f.
func importPathOf(modPath, f string) string {
	if d := path.Dir(f); d != "." {
		return modPath + "/" + d
	}
	return modPath
}

// ignored returns the module-relative names of the Go files of side s
// that its build constraints exclude (other GOOS, build tags, Go
// versions): changes to them change no benchmark here.
func (s *compareSide) ignored() map[string]bool {
	out := map[string]bool{}
	for _, p := range s.list {
		for _, f := range p.IgnoredGoFiles {
			if rel, err := filepath.Rel(s.w.Dir(), filepath.Join(p.Dir, f)); err == nil {
				out[filepath.ToSlash(rel)] = true
			}
		}
	}
	return out
}

// built returns lines without the files side s does not build.
func (s *compareSide) built(lines map[string][]changes.Range) map[string][]changes.Range {
	ign := s.ignored()
	out := map[string][]changes.Range{}
	for f, rs := range lines {
		if !ign[f] {
			out[f] = rs
		}
	}
	return out
}

// reaching returns the packages of list with tests whose benchmarks can run
// code of one of changed: the package itself, or one it or its tests
// import, directly or not.
func reaching(list []listedPackage, changed map[string][]string) []string {
	deps := map[string][]string{}
	for _, p := range list {
		deps[p.ImportPath] = p.Deps
	}
	var out []string
	for _, p := range list {
		if !p.hasTestFiles() {
			continue
		}
		all := []string{p.ImportPath}
		all = append(all, p.Deps...)
		for _, t := range slices.Concat(p.TestImports, p.XTestImports) {
			all = append(all, t)
			all = append(all, deps[t]...)
		}
		if slices.ContainsFunc(all, func(d string) bool { return changed[d] != nil }) {
			out = append(out, p.ImportPath)
		}
	}
	return out
}

// testPackages returns the packages (of list) whose test files changed.
func testPackages(list []listedPackage, modPath string, tests []string) []string {
	var out []string
	for _, f := range tests {
		ip := importPathOf(modPath, f)
		if slices.ContainsFunc(list, func(p listedPackage) bool { return p.ImportPath == ip }) && !slices.Contains(out, ip) {
			out = append(out, ip)
		}
	}
	return out
}

// selectChanged picks the benchmarks to compare and fills in
// rep.Selection and the benchmarks of one side only.
func (c *Comparison) selectChanged(ctx context.Context, sides [2]*compareSide, d *changes.Diff, rep *results.Comparison) ([]engine.Benchmark, map[engine.Benchmark]string, error) {
	rep.Selection.ChangedFiles = d.Files
	if rep.Selection.ChangedFiles == nil {
		rep.Selection.ChangedFiles = []string{}
	}
	why := map[engine.Benchmark]string{}
	var err error
	switch {
	case c.All || d.ModuleFiles():
		rep.Selection.All = true
		for _, s := range sides {
			var pkgs []string
			for _, p := range s.list {
				if p.hasTestFiles() {
					pkgs = append(pkgs, p.ImportPath)
				}
			}
			if err := s.listBenches(ctx, pkgs); err != nil {
				return nil, nil, err
			}
			for b := range s.benches {
				why[b] = "-all"
				if !c.All {
					why[b] = "go.mod or go.sum changed"
				}
			}
		}
	default:
		if why, err = c.selectCovered(ctx, sides, d, rep); err != nil {
			return nil, nil, err
		}
	}
	// A benchmark selected on one side is looked for on the other.
	var pkgs []string
	for b := range why {
		if !slices.Contains(pkgs, b.Pkg) {
			pkgs = append(pkgs, b.Pkg)
		}
	}
	sort.Strings(pkgs)
	for _, s := range sides {
		if err := s.listBenches(ctx, pkgs); err != nil {
			return nil, nil, err
		}
	}
	var sel []engine.Benchmark
	for b, w := range why {
		in := [2]bool{sides[0].benches[b], sides[1].benches[b]}
		cb := results.CompareBenchmark{Package: b.Pkg, Name: b.Name, Why: w}
		switch {
		case in[0] && in[1]:
			sel = append(sel, b)
			continue
		case in[0]:
			cb.Status, cb.Reason = results.OnlyOld, "removed in NEW: not compared"
		case in[1]:
			cb.Status, cb.Reason = results.OnlyNew, "new in NEW: not compared"
		default:
			continue // it failed on both sides (a warning says so)
		}
		rep.Benchmarks = append(rep.Benchmarks, cb)
	}
	sortBenchmarks(sel)
	switch {
	case len(sel) > 0 && rep.Selection.All:
		rep.Selection.Reason = fmt.Sprintf("%s to compare (%s)", english.Plural(len(sel), "benchmark"), why[sel[0]])
	case len(sel) > 0:
		var names []string
		for _, b := range sel {
			names = append(names, b.Name)
		}
		rep.Selection.Reason = fmt.Sprintf("benchmarks whose timed loop runs code changed between OLD and NEW: %d (%s)", len(sel), strings.Join(shortList(names, 5), ", "))
	case rep.Selection.Reason == "":
		rep.Selection.Reason = "no benchmark to compare"
	}
	return sel, why, nil
}

// selectCovered selects the benchmarks whose timed loop runs a changed
// line, on OLD (lines deleted or changed) or on NEW (lines added or
// changed), by coverage; and the benchmarks of packages whose test files
// changed.
func (c *Comparison) selectCovered(ctx context.Context, sides [2]*compareSide, d *changes.Diff, rep *results.Comparison) (map[engine.Benchmark]string, error) {
	code, tests := d.GoFiles()
	why := map[engine.Benchmark]string{}
	if len(code)+len(tests) == 0 {
		rep.Selection.Reason = fmt.Sprintf("no Go file changed between OLD and NEW (%s): no benchmark to compare; -all compares every benchmark", english.Plural(len(d.Files), "changed file"))
		return why, nil
	}
	lines := [2]map[string][]changes.Range{sides[0].built(d.Old), sides[1].built(d.New)}
	var changed [2]map[string][]string
	var cands, tps [2][]string
	for i, s := range sides { // both build before either measures coverage
		changed[i] = changedPackages(s.modPath, lines[i])
		cands[i], tps[i] = reaching(s.list, changed[i]), testPackages(s.list, s.modPath, tests)
		if err := s.build(ctx, slices.Concat(cands[i], tps[i])); err != nil {
			return nil, err
		}
	}
	var setup []string
	for i, s := range sides {
		changed, cand, tp := changed[i], cands[i], tps[i]
		if err := s.listBenches(ctx, slices.Concat(cand, tp)); err != nil {
			return nil, err
		}
		for _, p := range tp {
			for b := range s.benches {
				if b.Pkg == p && why[b] == "" {
					why[b] = "its package's test files changed"
				}
			}
		}
		if len(cand) == 0 {
			continue
		}
		var pkgs []*mutate.Package
		for _, p := range cand {
			if s.w.HasTests(p) {
				pkgs = append(pkgs, s.w.Package(p))
			}
		}
		coverpkg := make([]string, 0, len(changed))
		for p := range changed {
			if s.modPkgs[p] {
				coverpkg = append(coverpkg, p)
			}
		}
		sort.Strings(coverpkg)
		if len(pkgs) == 0 || len(coverpkg) == 0 {
			continue
		}
		covs, err := s.w.CoverBenchmarks(ctx, pkgs, coverpkg)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", s.name, s.rev.Name, err)
		}
		for _, bc := range covs {
			f, inLoop := changedRun(bc, s.modPath, lines[i])
			switch {
			case f == "":
			case inLoop && why[bc.Bench] == "":
				why[bc.Bench] = fmt.Sprintf("runs changed lines of %s (%s) in its timed loop", f, s.name)
			case !inLoop && !slices.Contains(setup, bc.Bench.Name):
				setup = append(setup, bc.Bench.Name)
			}
		}
	}
	for b := range why {
		setup = slices.DeleteFunc(setup, func(n string) bool { return n == b.Name })
	}
	sort.Strings(setup)
	rep.Selection.SetupOnly = setup
	if len(why) == 0 {
		rep.Selection.Reason = noneReason(code, tests, sides, lines, setup)
	}
	return why, nil
}

// noneReason says why no benchmark was selected: none runs the changed Go
// files (code, tests) in its timed loop; it names the files the build
// constraints excluded on both sides (lines: the built lines per side)
// and the benchmarks that ran changed code only in their setup.
func noneReason(code, tests []string, sides [2]*compareSide, lines [2]map[string][]changes.Range, setup []string) string {
	var goFiles []string
	goFiles = append(goFiles, code...)
	goFiles = append(goFiles, tests...)
	reason := fmt.Sprintf("no benchmark runs the code changed between OLD and NEW (%s) in its timed loop: nothing to compare; -all compares every benchmark", strings.Join(shortList(goFiles, 3), ", "))
	var unbuilt []string
	for _, f := range code {
		if sides[0].ignored()[f] || sides[1].ignored()[f] {
			if _, inOld := lines[0][f]; !inOld {
				if _, inNew := lines[1][f]; !inNew {
					unbuilt = append(unbuilt, f)
				}
			}
		}
	}
	if len(unbuilt) > 0 {
		reason += fmt.Sprintf(" (%s: excluded by build constraints here)", strings.Join(shortList(unbuilt, 3), ", "))
	}
	if len(setup) > 0 {
		reason += fmt.Sprintf(" (run only in benchmark setup by %s)", strings.Join(shortList(setup, 3), ", "))
	}
	return reason
}

// changedRun returns the first changed file (module relative) whose lines
// bc runs, and whether it runs them in its timed loop (a block that runs
// more often at 2N iterations than at N).
func changedRun(bc *engine.BenchCoverage, modPath string, lines map[string][]changes.Range) (string, bool) {
	first := ""
	for _, f := range sortedKeys(lines) {
		blocks := bc.Blocks[importPathOf(modPath, f)+"/"+path.Base(f)]
		for _, b := range blocks {
			for _, r := range lines[f] {
				if b.StartLine > r.End || b.EndLine < r.Start {
					continue
				}
				if b.Growth() > 0 {
					return f, true
				}
				if first == "" {
					first = f
				}
			}
		}
	}
	return first, false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// shortList is the first n of xs and "…" if there are more.
func shortList(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(slices.Clone(xs[:n]), "…")
}

// sortBenchmarks sorts by package, then name.
func sortBenchmarks(bs []engine.Benchmark) {
	sort.Slice(bs, func(i, j int) bool {
		if bs[i].Pkg != bs[j].Pkg {
			return bs[i].Pkg < bs[j].Pkg
		}
		return bs[i].Name < bs[j].Name
	})
}
