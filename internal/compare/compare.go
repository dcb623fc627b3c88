package compare

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// A Comparison is one perfmut compare: two versions of a module (git
// revisions, NEW possibly the working tree), the benchmarks whose timed
// loop runs the code that changed between them, measured on both versions
// with the design of engine.Engine.Measure (fixed iterations, interleaved rounds,
// censoring, early stopping, per-metric tests and corrections, minimum
// effect), and a verdict per benchmark and metric.
type Comparison struct {
	// Measurement is how to build, run and judge the benchmarks: Rule,
	// Metric, SampleTime, Benchtime, CensorFactor, SkipBench,
	// BenchTimeout, CPU (the GOMAXPROCS values each benchmark is compared
	// at, go test -cpu; none = the default), Counting, Jobs, Tags, Seed,
	// Log, Verbose. Its Rule's Alpha is the false-change rate of the whole
	// comparison (see score.Rule.ForBenchmarks).
	engine.Measurement
	// Settings are what compare.json records of the flags (as given,
	// Patterns too); Compare fills in the module and the Go version.
	Settings results.Settings
	Dir      string   // the module's directory, only read; default "."
	Out      string   // results directory; default perfmut-compare
	Old, New string   // git revisions; New may be changes.WorkTree
	Patterns []string // packages whose benchmarks are compared; default ./...
	// All measures every benchmark of the packages, not only those that
	// run changed code.
	All bool
	// Generate generates a concurrent benchmark for each thread-safe type
	// whose methods changed and compares it too (see generate).
	Generate bool
	// MinSamples is -min-samples as given: 0 derives the first look from
	// each benchmark's share of Alpha.
	MinSamples int
	// MaxSlowdown (a fraction) is the gate: a slower metric whose median
	// ratio NEW/OLD is above 1+MaxSlowdown is a failure.
	MaxSlowdown float64
	// HistoryDir, if set, is a store of measured distributions: NEW's are
	// checked against it for drift, then both sides' are appended.
	HistoryDir string
	// ScoreDir, if set, is the -out directory of a perfmut run: the report
	// gets the mutation score and survivors of the changed packages.
	ScoreDir string
	// ScoreFor computes the score section from ScoreDir's report (the
	// changed packages' import paths and the changed Go files); set when
	// ScoreDir is.
	ScoreFor func(rep *results.Report, dir string, pkgs, changedFiles []string) *results.ScoreSection
	// Attribute says which benchmarks to explain by functions from
	// profiles (AttributeChanged, AttributeUndecided, AttributeOff;
	// default AttributeChanged), AttributeRounds in how many interleaved
	// rounds (default DefaultAttributeRounds).
	Attribute       string
	AttributeRounds int
}

// The files a comparison writes in its output directory.
const (
	CompareOldSamples = "old.txt"
	CompareNewSamples = "new.txt"
)

// compareSide is one version of a comparison.
type compareSide struct {
	name    string // OLD or NEW
	rev     changes.Rev
	w       *engine.Workspace // its module directory, packages and test binaries
	list    []listedPackage
	modPath string
	benches map[engine.Benchmark]bool // every benchmark listed in its binaries
	listed  map[string]bool           // packages whose benchmarks are in benches
	modPkgs map[string]bool           // every package of the module (import paths)
}

// Compare runs the comparison and writes compare.json and the benchfmt
// samples of both sides (old.txt, new.txt) into c.Out. It never writes the
// module: OLD (and NEW unless it is the working tree) are exported from
// git into a private temporary directory, removed at the end, also when
// ctx is cancelled.
func (c *Comparison) Compare(ctx context.Context) (*results.Comparison, error) {
	started := time.Now()
	cc := *c
	c = &cc
	if err := c.check(); err != nil {
		return nil, err
	}
	scoreRep, err := c.readScore()
	if err != nil {
		return nil, err
	}
	past, err := c.readHistory()
	if err != nil {
		return nil, err
	}
	repo, revs, diff, err := c.revisions(ctx)
	if err != nil {
		return nil, err
	}
	if err := outdir.Make(c.Out); err != nil {
		return nil, inputerr.Errorf("cannot create -out directory: %w", err)
	}
	lock, err := outdir.Lock(c.Out)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	tmp, err := outdir.MakeTemp()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	prog := engine.NewProgress(c.Log, c.Progress, 0)
	defer prog.End()
	var sides [2]*compareSide
	for i, rev := range revs {
		if sides[i], err = c.openSide(ctx, repo, rev, [2]string{"OLD", "NEW"}[i], tmp, prog); err != nil {
			return nil, err
		}
	}
	rep := &results.Comparison{
		Old:         results.CompareSide{Rev: revs[0].Name, Commit: revs[0].Commit, Samples: CompareOldSamples},
		New:         results.CompareSide{Rev: revs[1].Name, Commit: revs[1].Commit, Samples: CompareNewSamples},
		Module:      sides[1].modPath,
		MaxSlowdown: c.MaxSlowdown,
	}
	rep.Settings = c.Settings
	rep.Settings.Module, rep.Settings.GoVersion = rep.Module, engine.GoVersion(ctx)
	sel, why, err := c.selectAll(ctx, sides, diff, rep)
	if err != nil {
		return nil, err
	}
	prog.Logf("perfmut: %s", rep.Selection.Reason)
	if scoreRep != nil {
		rep.Score = c.scoreSection(scoreRep, c.ScoreDir, sides, diff)
	}
	var behaviours map[string][2][]map[string]float64
	if sel = engine.WithCPUs(sel, c.CPU); len(sel) > 0 {
		if err := c.measureAll(ctx, sides, sel, why, rep); err != nil {
			return nil, err
		}
		if behaviours, err = c.attributeAll(ctx, sides, sel, diff, rep); err != nil {
			return nil, err
		}
	}
	for _, s := range sides {
		rep.Warnings = append(rep.Warnings, s.w.Warnings()...)
	}
	if c.HistoryDir != "" {
		if err := c.history(ctx, rep, past, behaviours); err != nil {
			return nil, err
		}
	}
	rep.Failures = gateFailures(rep)
	rep.Seconds = time.Since(started).Seconds()
	return rep, results.WriteJSON(filepath.Join(c.Out, results.CompareFile), rep)
}

// selectAll is the benchmarks to measure: those that run the changed
// code (selectChanged) and, with -generate, the generated ones, each with
// why it was chosen.
func (c *Comparison) selectAll(ctx context.Context, sides [2]*compareSide, diff *changes.Diff, rep *results.Comparison) ([]engine.Benchmark, map[engine.Benchmark]string, error) {
	sel, why, err := c.selectChanged(ctx, sides, diff, rep)
	if err != nil || !c.Generate {
		return sel, why, err
	}
	gsel, gwhy, err := c.generate(ctx, sides, diff, rep)
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(why, gwhy)
	return append(sel, gsel...), why, nil
}

// revisions opens the module's repository, resolves OLD and NEW and
// returns what changed between them.
func (c *Comparison) revisions(ctx context.Context) (changes.Repo, [2]changes.Rev, *changes.Diff, error) {
	var revs [2]changes.Rev
	repo, err := changes.OpenRepo(ctx, c.Dir)
	if err != nil {
		return repo, revs, nil, &inputerr.Error{Err: err}
	}
	for i, rev := range []string{c.Old, c.New} {
		if revs[i], err = repo.Resolve(ctx, [2]string{"OLD", "NEW"}[i], rev); err != nil {
			return repo, revs, nil, &inputerr.Error{Err: err}
		}
	}
	diff, err := repo.Between(ctx, revs[0], revs[1])
	return repo, revs, diff, err
}

// check fills in the defaults and checks the settings.
func (c *Comparison) check() error {
	if len(c.Patterns) == 0 {
		c.Patterns = []string{"./..."}
	}
	if c.SampleTime <= 0 {
		c.SampleTime = engine.DefaultSampleTime
	}
	if c.BenchTimeout <= 0 {
		c.BenchTimeout = engine.DefaultBenchTimeout
	}
	if c.Jobs <= 0 {
		c.Jobs = 1
	}
	if c.Out == "" {
		c.Out = "perfmut-compare"
	}
	if abs, err := filepath.Abs(c.Out); err == nil {
		c.Out = abs
	}
	if c.Dir == "" {
		c.Dir = "."
	}
	if abs, err := filepath.Abs(c.Dir); err == nil {
		c.Dir = abs
	}
	if c.MaxSlowdown < 0 {
		return inputerr.Errorf("-max-slowdown %v out of range: want 0 or more, e.g. 5%%", c.MaxSlowdown)
	}
	if err := c.Rule.ValidateChange(); err != nil {
		return &inputerr.Error{Err: err}
	}
	return c.checkAttribute()
}

// openSide exports rev into tmp (unless it is the working tree), lists
// its packages and builds their test binaries.
func (c *Comparison) openSide(ctx context.Context, repo changes.Repo, rev changes.Rev, name, tmp string, prog *engine.Progress) (*compareSide, error) {
	lower := map[string]string{"OLD": "old", "NEW": "new"}[name]
	dir := c.Dir
	if rev.Name != changes.WorkTree {
		prog.Logf("perfmut: exporting %s (%s) from git", name, rev.Name)
		d, err := repo.Export(ctx, rev, filepath.Join(tmp, lower+"-src"))
		if err != nil {
			return nil, err
		}
		dir = d
	}
	w, err := engine.NewWorkspace(engine.Config{Module: mutate.Module{Dir: dir}, Measurement: c.Measurement}, filepath.Join(tmp, lower), prog)
	if err != nil {
		return nil, err
	}
	s := &compareSide{name: name, rev: rev, w: w, benches: map[engine.Benchmark]bool{}, listed: map[string]bool{}}
	if s.list, s.modPath, err = listPackages(ctx, dir, c.Tags, c.Patterns); err != nil {
		if errors.As(err, new(*inputerr.Error)) {
			return nil, inputerr.Errorf("%s (%s): %v", name, rev.Name, err)
		}
		return nil, fmt.Errorf("%s (%s): %w", name, rev.Name, err)
	}
	for _, p := range s.list {
		w.AddPackage(&mutate.Package{ImportPath: p.ImportPath, Name: p.Name, Dir: p.Dir})
	}
	// Changed code outside the patterns counts too: a benchmark of ./cmd
	// runs the module's other packages.
	s.modPkgs = map[string]bool{}
	if all, _, err := listPackages(ctx, dir, c.Tags, []string{"./..."}); err == nil {
		for _, p := range all {
			s.modPkgs[p.ImportPath] = true
		}
	}
	for _, p := range s.list {
		s.modPkgs[p.ImportPath] = true
	}
	return s, nil
}

// build builds the test binaries of pkgs (import paths) on side s.
func (s *compareSide) build(ctx context.Context, pkgs []string) error {
	return s.w.Build(ctx, pkgs, s.name, s.rev.Name)
}

// listBenches lists the benchmarks of pkgs on side s (building their test
// binaries first) into s.benches.
func (s *compareSide) listBenches(ctx context.Context, pkgs []string) error {
	if err := s.build(ctx, pkgs); err != nil {
		return err
	}
	for _, p := range pkgs {
		if s.w.Binary(p) == "" || s.listed[p] {
			continue
		}
		s.listed[p] = true
		names, err := s.w.ListBenchmarks(ctx, p)
		if err != nil {
			return fmt.Errorf("%s (%s): %w", s.name, s.rev.Name, err)
		}
		for _, n := range names {
			s.benches[engine.Benchmark{Pkg: p, Name: n}] = true
		}
	}
	return nil
}

// gateFailures lists the slower metrics beyond the report's MaxSlowdown.
func gateFailures(rep *results.Comparison) []string {
	var out []string
	for _, b := range rep.Benchmarks {
		for _, m := range b.Metrics {
			if m.Verdict == score.Slower && score.Exceeds(m.Ratio, rep.MaxSlowdown) {
				out = append(out, fmt.Sprintf("%s %s %s", b.Name, m.Metric, score.RatioX(m.Ratio)))
			}
		}
	}
	return out
}

// readScore reads the report of Comparison.ScoreDir, before any work: a
// missing or unreadable one is bad input.
func (c *Comparison) readScore() (*results.Report, error) {
	if c.ScoreDir == "" {
		return nil, nil
	}
	path := filepath.Join(c.ScoreDir, results.ReportFile)
	if _, err := os.Stat(path); err != nil {
		return nil, inputerr.Errorf("-score %s: no %s there; name the -out directory of a perfmut run (perfmut run -out DIR ./...)", c.ScoreDir, results.ReportFile)
	}
	rep, err := results.ReadFile(path)
	if err != nil {
		return nil, inputerr.Errorf("-score %s: %w", c.ScoreDir, err)
	}
	return rep, nil
}

// scoreSection is the score of the packages whose non-test Go files
// changed (on either side), from rep.
func (c *Comparison) scoreSection(rep *results.Report, dir string, sides [2]*compareSide, d *changes.Diff) *results.ScoreSection {
	var pkgs []string
	for i, lines := range []map[string][]changes.Range{d.Old, d.New} {
		for p := range changedPackages(sides[i].modPath, lines) {
			if !slices.Contains(pkgs, p) {
				pkgs = append(pkgs, p)
			}
		}
	}
	code, _ := d.GoFiles()
	s := c.ScoreFor(rep, dir, pkgs, code)
	if rep.Module != "" && rep.Module != sides[1].modPath {
		s.Warnings = append(s.Warnings, fmt.Sprintf("the results in %s are of module %s, not %s", dir, rep.Module, sides[1].modPath))
	}
	return s
}
