package generate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Dir is the directory of a results directory that generate writes to.
const Dir = "generate"

// Config is one perfmut generate.
type Config struct {
	Program *mutate.Program
	Mutants []mutate.Mutant // the module's mutants (as run generates them)
	// Before is the campaign whose no-coverage and survived mutants are
	// the targets; nil = find the no-coverage ones from the benchmarks'
	// timed blocks (the campaign's coverage step).
	Before *results.Report
	// Load loads the module copy at dir as Program was loaded, with its
	// mutants.
	Load func(ctx context.Context, dir string) (*mutate.Program, []mutate.Mutant, error)
	// Campaign is the verification campaign's settings (levels, rule,
	// measurement): Run fills in the module, its packages and mutants.
	Campaign *runner.Campaign
	Out      string    // the results directory: Run writes to Out/generate
	Log      io.Writer // progress lines
}

// Run generates, verifies and writes the benchmarks. Interrupted (ctx
// cancelled), it says so in one line; the module is untouched and its
// temporary files are removed.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	res, err := run(ctx, cfg)
	if err != nil && ctx.Err() != nil {
		return nil, errors.New("interrupted; nothing was written to the module")
	}
	return res, err
}

func run(ctx context.Context, cfg Config) (*Result, error) {
	start := time.Now()
	res := &Result{Module: cfg.Program.Module.Path}
	if abs, err := filepath.Abs(cfg.Out); err == nil {
		cfg.Out = abs // the module copy leaves it out
	}
	tmp, err := outdir.MakeTemp()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	e := engine.New(engine.Config{Module: cfg.Program.Module, Packages: cfg.Program.Packages, Measurement: cfg.Campaign.Measurement}, tmp, nil)
	before, err := cfg.before(ctx)
	if err != nil {
		return nil, err
	}
	targets, skipped := selectTargets(cfg.Program, cfg.Mutants, before)
	res.Skipped = skipped
	res.Targets = targets
	if len(targets) == 0 {
		return res, cfg.finish(res, start)
	}
	cfg.logf("perfmut: generate: %s with no-coverage, surviving or undecided mutants; capturing their arguments from the tests", english.Plural(len(targets), "function"))
	pl := newPlan(targets)
	calls, note, err := capture(ctx, e, cfg.Program.Module.Dir, targetPackages(targets), pl.probes, 10*time.Minute)
	if err != nil {
		return nil, err
	}
	if note != "" {
		res.Warnings = append(res.Warnings, note)
	}
	files := pl.candidates(cfg.Program, calls, res)
	if err := cfg.concurrent(ctx, e, files, res); err != nil {
		return nil, err
	}
	copyDir := filepath.Join(tmp, "module")
	if err := runner.CopyModule(cfg.Program.Module.Dir, copyDir, cfg.Out); err != nil {
		return nil, err
	}
	ns := map[string]float64{}
	for _, f := range files {
		f.dir = filepath.Join(copyDir, mustRel(cfg.Program.Module.Dir, f.pkg.Dir))
		dropped, err := f.check(ctx, e, copyDir, &res.Builds, ns)
		if err != nil {
			return nil, err
		}
		res.Skipped = append(res.Skipped, dropped...)
	}
	if n := countCands(files); n > 0 {
		cfg.logf("perfmut: generate: %s %s, %s go vet and %s (%s); measuring %s mutants", english.Plural(n, "candidate benchmark"),
			english.Choose(n, "compiles", "compile"), english.Choose(n, "passes", "pass"), english.Choose(n, "runs", "run"), english.Plural(res.Builds, "go build"),
			english.Choose(n, "it on its function's", "them on their functions'"))
	} else {
		cfg.logf("perfmut: generate: no candidate benchmark compiles, passes go vet and runs (%s); nothing to measure", english.Plural(res.Builds, "go build"))
	}
	rep, err := cfg.verify(ctx, copyDir, files, targets)
	if err != nil {
		return nil, err
	}
	res.collect(files, rep, ns, before)
	if err := cfg.writeFiles(files, res); err != nil {
		return nil, err
	}
	res.scores(cfg.Before, cfg.Campaign.Levels)
	return res, cfg.finish(res, start)
}

func (cfg *Config) logf(format string, args ...any) {
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, format+"\n", args...)
	}
}

// before is each mutant's status before: from the campaign's report (its
// first level), or no-coverage for the mutants no benchmark's timed loop
// runs.
func (cfg *Config) before(ctx context.Context) (map[string]score.Status, error) {
	out := map[string]score.Status{}
	if rep := cfg.Before; rep != nil {
		for _, m := range rep.Mutants {
			for _, l := range []string{results.Opt, results.NoOpt} {
				if lr := m.Results[l]; lr != nil {
					out[m.ID] = lr.Status
					break
				}
			}
		}
		return out, nil
	}
	prog := cfg.Program
	timed, err := engine.TimedBlocks(ctx, prog.Module.Dir, prog.Module.Path, []string{"./..."}, cfg.Campaign.Tags, cfg.Campaign.SkipBench)
	if err != nil {
		return nil, err
	}
	for _, m := range cfg.Mutants {
		src, err := os.ReadFile(filepath.Join(prog.Module.Dir, filepath.FromSlash(m.File)))
		if err != nil {
			return nil, err
		}
		covered := false
		for _, b := range timed[engine.CoverFile(m)] {
			for _, p := range engine.MutantPositions(src, m) {
				covered = covered || b.Contains(p[0], p[1])
			}
		}
		if !covered {
			out[m.ID] = score.NoCoverage
		}
	}
	return out, nil
}

// targetPackages are the import paths of the targets' packages.
func targetPackages(ts []*Target) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if !seen[t.Package] {
			seen[t.Package] = true
			out = append(out, t.Package)
		}
	}
	return out
}

// candidates writes each target's benchmark, grouped by package; the
// targets without one are added to res.Skipped.
func (pl *plan) candidates(prog *mutate.Program, calls map[string][]*recordedCall, res *Result) []*pkgFile {
	byPkg := map[string]*pkgFile{}
	var files []*pkgFile
	for _, t := range pl.targets {
		f := byPkg[t.Package]
		if f == nil {
			f = &pkgFile{pkg: t.pkg, spec: fileSpec{pkgName: t.pkg.Name, goVersion: prog.Module.GoVersion, w: newWriter(t.pkg.Types()), docs: map[string][]string{}}}
			f.taken = existingBenchmarks(t.pkg.Dir)
			byPkg[t.Package] = f
			files = append(files, f)
		}
		c, why := pl.candidate(f.spec.w, t, calls, benchName(t.Function, f.taken))
		if c == nil {
			res.Skipped = append(res.Skipped, Skipped{Package: t.Package, Function: t.Function, Reason: why})
			continue
		}
		c.Doc = fmt.Sprintf("%s calls %s (%s:%d) with arguments its tests pass it.", c.Name, t.Function, t.File, t.Line)
		f.cands = append(f.cands, c)
	}
	return files
}

var benchDecl = regexp.MustCompile(`(?m)^func (Benchmark\w*)\(`)

// existingBenchmarks are the benchmark names the test files in dir
// declare.
func existingBenchmarks(dir string) map[string]bool {
	out := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		if filepath.Base(f) == FileName {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range benchDecl.FindAllSubmatch(src, -1) {
			out[string(m[1])] = true
		}
	}
	return out
}

func mustRel(base, path string) string {
	r, err := filepath.Rel(base, path)
	if err != nil {
		return path
	}
	return r
}

func countCands(files []*pkgFile) int {
	n := 0
	for _, f := range files {
		n += len(f.cands)
	}
	return n
}

// verify runs the campaign on the targets' mutants in the module copy
// holding the generated files, on the generated benchmarks only.
func (cfg *Config) verify(ctx context.Context, copyDir string, files []*pkgFile, targets []*Target) (*results.Report, error) {
	want := map[string]bool{}
	for _, f := range files {
		for _, c := range f.cands {
			for _, m := range c.Target.Mutants {
				want[m.ID] = true
			}
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	prog, mutants, err := cfg.Load(ctx, copyDir)
	if err != nil {
		return nil, fmt.Errorf("loading the module with the generated benchmarks: %w", err)
	}
	var ms []mutate.Mutant
	for _, m := range mutants {
		if want[m.ID] {
			ms = append(ms, m)
		}
	}
	judges, err := prog.Judges(ctx)
	if err != nil {
		return nil, err
	}
	c := *cfg.Campaign
	c.Module, c.Packages, c.Mutants, c.Overlay, c.Diff = prog.Module, judges, ms, prog.Overlay, prog.Diff
	c.Out = filepath.Join(cfg.Out, Dir, "campaign")
	c.Resume, c.Since = false, ""
	c.Log = cfg.Log
	var skip []string
	for _, p := range judges {
		for name := range existingBenchmarks(p.Dir) {
			skip = append(skip, regexp.QuoteMeta(name))
		}
	}
	sort.Strings(skip)
	if len(skip) > 0 {
		own := "^(" + strings.Join(skip, "|") + ")$"
		if c.SkipBench != "" {
			own = c.SkipBench + "|" + own
		}
		c.SkipBench = own
	}
	if err := os.RemoveAll(c.Out); err != nil {
		return nil, err
	}
	return c.Run(ctx)
}
