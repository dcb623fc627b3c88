package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// ReproOptions say which verdict Reproduce checks and how: perfmut
// reproduce's flags and argument, checked.
type ReproOptions struct {
	ID      string        // the mutant's ID or a unique prefix of it (load.CheckID)
	Dir     string        // the campaign's module; "" = the one its report names, if it exists, else "."
	Config  string        // the configuration file the campaign used; "" = perfmut.yaml at the module root, if any
	Out     string        // the campaign's results directory (holding report.json)
	Count   int           // samples of each side
	N       int           // iterations of every sample; 0 = the campaign's count
	Level   string        // results.Opt or results.NoOpt; "" = the first the mutant was measured at
	Timeout time.Duration // deadline of each benchmark process
}

// Reproduce checks one verdict of the campaign in o.Out with benchstat:
// it finds the mutant in the results and in the module's current code,
// builds both sides' test binaries, runs the benchmarks that measured it
// alternately (Reproduction), writes the samples
// to OUT/reproduce/ID/LEVEL/ and prints benchstat's table and whether it
// agrees with the verdict to stdout; progress goes to log. Bad input is
// an *inputerr.Error.
func Reproduce(ctx context.Context, stdout, log io.Writer, o ReproOptions) error {
	rep, dir, err := ReadResults(o.Out)
	if err != nil {
		return err
	}
	rm, err := reportMutant(rep, o.ID, dir)
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	level, lr, err := reproLevel(rep, rm, o.Level, o.N > 0)
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	p, err := o.reproduction(ctx, rep, rm, level, lr)
	if err != nil {
		return err
	}
	p.Out = filepath.Join(dir, "reproduce", rm.ID, level)
	p.Log = log
	// The samples go into the results directory: not while a run writes there.
	lock, err := outdir.Lock(dir)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	fmt.Fprintf(log, "perfmut: reproduce %s at %s: %s, %d samples of each side\n", rm.ID, level, benchList(p.Benchmarks), p.Count)
	if err := p.Run(ctx); err != nil {
		return err
	}
	return printReproduction(stdout, p.Out, rm.ID, lr, level)
}

// reproduction loads the campaign's module, finds the mutant in it and
// returns what to run.
func (o *ReproOptions) reproduction(ctx context.Context, rep *results.Report, rm *results.Mutant, level string, lr *results.LevelResult) (*Reproduction, error) {
	dir := o.Dir
	if st, err := os.Stat(rep.Dir); dir == "" && rep.Dir != "" && err == nil && st.IsDir() {
		dir = rep.Dir // the campaign's module
	}
	ld := load.Loader{Dir: dir, ConfigPath: o.Config, Tags: strings.Join(rep.Settings.Tags, ","), Operators: strings.Join(rep.Settings.Operators, ",")}
	loaded, err := ld.Load(ctx, rep.Settings.Patterns)
	if err != nil {
		return nil, err
	}
	prog := loaded.Program
	if rep.Module != "" && rep.Module != prog.Module.Path {
		return nil, inputerr.Errorf("the report is of module %s, %s holds %s; give the campaign's module with -C", rep.Module, ld.DirOrDot(), prog.Module.Path)
	}
	found, err := load.FindMutants(loaded.Mutants, []string{rm.ID})
	if err != nil || len(found) != 1 || found[0].ID != rm.ID {
		return nil, inputerr.Errorf("mutant %s (%s:%d) is not among the mutants of the module's current code: the code changed since the campaign; re-run it", rm.ID, rm.File, rm.Line)
	}
	overlay, err := prog.Overlay(found[0])
	if err != nil {
		return nil, err
	}
	pkgs, err := prog.Judges(ctx)
	if err != nil {
		return nil, err
	}
	benches, err := reproBenchmarks(lr, rep.Settings.CPU, rm.Package, pkgs, o.N)
	if err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	return &Reproduction{Module: prog.Module.Dir, Packages: pkgs, Overlay: overlay, Level: level,
		Tags: rep.Settings.Tags, Benchmarks: benches, Count: o.Count, Timeout: o.Timeout}, nil
}

// reportMutant finds the mutant whose ID is id or starts with it.
func reportMutant(rep *results.Report, id, dir string) (*results.Mutant, error) {
	var found []*results.Mutant
	for i := range rep.Mutants {
		if strings.HasPrefix(rep.Mutants[i].ID, id) {
			found = append(found, &rep.Mutants[i])
		}
	}
	switch {
	case len(found) == 0:
		return nil, fmt.Errorf("no mutant %s in %s (%d mutants); give an ID from its report.txt", id, filepath.Join(dir, ReportFile), len(rep.Mutants))
	case len(found) > 1:
		return nil, fmt.Errorf("mutant ID prefix %s is ambiguous in %s (%s, %s, ...); give more digits", id, filepath.Join(dir, ReportFile), found[0].ID, found[1].ID)
	}
	return found[0], nil
}

// reproLevel returns the level to reproduce and the mutant's result
// there: want, or the first level (opt, then noopt) it was measured at. A
// result without a fixed iteration count (not measured, or time-based
// samples) can be reproduced only with -benchtime Nx (fixed).
func reproLevel(rep *results.Report, rm *results.Mutant, want string, fixed bool) (string, *results.LevelResult, error) {
	levels := []string{results.Opt, results.NoOpt}
	if want != "" {
		levels = []string{want}
	}
	for _, l := range levels {
		if lr := rm.Results[l]; lr != nil && len(lr.Iterations) > 0 {
			return l, lr, nil
		}
	}
	l := levels[0]
	if want == "" && rm.Results[l] == nil {
		l = results.NoOpt
	}
	lr := rm.Results[l]
	switch {
	case lr == nil:
		return "", nil, fmt.Errorf("mutant %s has no result at %s (the campaign ran -opt %s)", rm.ID, l, rep.Settings.Opt)
	case lr.InferredFrom != "":
		return "", nil, fmt.Errorf("mutant %s was not measured at %s: its kill was inferred from %s; reproduce that one", rm.ID, l, lr.InferredFrom)
	case len(lr.Benchmarks) == 0:
		why := string(lr.Status)
		if lr.Reason != "" {
			why += ": " + lr.Reason
		}
		return "", nil, fmt.Errorf("mutant %s was not measured at %s (%s); no benchmark to run", rm.ID, l, why)
	case !fixed:
		return "", nil, fmt.Errorf("mutant %s at %s has no fixed iteration count (the campaign ran -benchtime %s); give -benchtime Nx", rm.ID, l, rep.Settings.Benchtime)
	}
	return l, lr, nil
}

// reproBenchmarks returns the benchmarks that measured the mutant of the
// package mutated, at their fixed counts (n instead, if not 0). pkgs are
// the module's packages.
func reproBenchmarks(lr *results.LevelResult, cpus []int, mutated string, pkgs []*mutate.Package, n int) ([]ReproBenchmark, error) {
	names := make([]string, 0, len(lr.Iterations))
	for name := range lr.Iterations {
		names = append(names, name)
	}
	if len(names) == 0 {
		for _, b := range lr.Benchmarks {
			if !slices.Contains(names, b.Benchmark) {
				names = append(names, b.Benchmark)
			}
		}
	}
	slices.Sort(names)
	var out []ReproBenchmark
	for _, display := range names {
		b, err := splitDisplay(display, cpus, mutated, pkgs)
		if err != nil {
			return nil, err
		}
		b.N = lr.Iterations[display]
		if n > 0 {
			b.N = n
		}
		out = append(out, b)
	}
	return out, nil
}

// splitDisplay turns a benchmark's name in a report (its name, "-CPU"
// when measured at a -cpu value, "pkg." before it when two measured
// packages share it) into a benchmark. Without the package, it is the
// first package, the mutated one first, whose test files declare it.
func splitDisplay(display string, cpus []int, mutated string, pkgs []*mutate.Package) (ReproBenchmark, error) {
	var b ReproBenchmark
	name := display
	for i := 0; ; {
		j := strings.Index(name[i:], ".Benchmark")
		if j < 0 {
			break
		}
		if pre := name[:i+j]; slices.ContainsFunc(pkgs, func(p *mutate.Package) bool { return p.ImportPath == pre }) {
			b.Package, name = pre, name[i+j+1:]
			break
		}
		i += j + 1
	}
	if len(cpus) > 0 {
		if k := strings.LastIndex(name, "-"); k > 0 {
			if c, err := strconv.Atoi(name[k+1:]); err == nil && slices.Contains(cpus, c) && c > 1 {
				b.CPU, name = c, name[:k]
			}
		}
		if b.CPU == 0 && slices.Contains(cpus, 1) {
			b.CPU = 1
		}
	}
	b.Name = name
	if b.Package == "" {
		b.Package = declaringPackage(name, mutated, pkgs)
	}
	if b.Package == "" {
		return b, fmt.Errorf("benchmark %s: no test file of the module declares %s", display, strings.Split(name, "/")[0])
	}
	return b, nil
}

// declaringPackage is the first package, mutated then the others in
// order, whose _test.go files declare the top-level function of the
// benchmark name, or "".
func declaringPackage(name, mutated string, pkgs []*mutate.Package) string {
	top := strings.Split(name, "/")[0]
	decl := regexp.MustCompile(`(?m)^func ` + regexp.QuoteMeta(top) + `\(`)
	order := slices.Clone(pkgs)
	slices.SortStableFunc(order, func(a, b *mutate.Package) int {
		return boolRank(a.ImportPath != mutated) - boolRank(b.ImportPath != mutated)
	})
	for _, p := range order {
		files, _ := filepath.Glob(filepath.Join(p.Dir, "*_test.go"))
		for _, f := range files {
			if src, err := os.ReadFile(f); err == nil && decl.Match(src) {
				return p.ImportPath
			}
		}
	}
	return ""
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// benchList names the benchmarks and their counts.
func benchList(bs []ReproBenchmark) string {
	var parts []string
	for _, b := range bs {
		parts = append(parts, fmt.Sprintf("%s at %dx", b.Name, b.N))
	}
	return strings.Join(parts, ", ")
}
