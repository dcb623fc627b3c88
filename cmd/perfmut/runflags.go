package main

import (
	"flag"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// CampaignFlags are the settings of how a campaign builds, measures and
// decides, as the perfmut commands take them on the command line. perfmut
// registers them once for every command that measures (run, calibrate,
// compare), so that calibrate vets exactly the rule run applies (as x/tools
// registers an analysis driver's flags in one place); Check validates them
// and runner.Campaign turns them into a runner.Campaign. To add one: a field here, its
// registration in Register or RegisterMeasure, its check in Check or CheckMeasure, its
// runner.Campaign field in runner.Campaign and, if it changes verdicts, its
// results.Settings field (resume and merge compare those).
type CampaignFlags struct {
	Opt     string // -opt both|on|off
	Jobs    int
	Isolate string
	Seed    int64
	RuleFlags
	MaxBenches int
	CPU        string // comma-separated GOMAXPROCS values
	SampleTime time.Duration
	Censor     float64
	Benchtime  string
	Infer      bool
	FullFilter bool
	SkipBench  string
	BenchTO    time.Duration
	Timeout    time.Duration
	Out        string
	Resume     bool
	Verbose    bool
	Measure    string // -measure time|instructions|auto

	cpus []int // parsed from CPU by CheckMeasure
}

// Register registers the campaign flags on fs (perfmut run and
// calibrate); outDefault is -out's default.
func (f *CampaignFlags) Register(fs *flag.FlagSet, outDefault string) {
	f.RegisterMeasure(fs, outDefault, score.DefaultMinEffect)
	fs.Float64Var(&f.Margin, "margin", 0, "a survivor must rule out a slowdown of this `ratio`: every time and custom metric's 95% upper bound of the per-round ratios mutant/baseline at most it, else the mutant is sampled on and, at -max-samples, undecided; 0 = the default, the larger of 1.05 and -min-effect; -1 = off")
	fs.BoolVar(&f.Resume, "resume", false, "continue the interrupted run in -out (finished results are not redone)")
	fs.StringVar(&f.Opt, "opt", "both", "optimization `levels`: both, on (default compiler flags) or off (-gcflags=all=-N -l)")
	fs.StringVar(&f.Isolate, "isolate", runner.IsolateOverlay, "how mutants are built: overlay (go build -overlay) or copy (a private copy of the module, for tests that read their own source files)")
	fs.IntVar(&f.MaxBenches, "max-benchmarks", runner.DefaultMaxBenchmarks, "measure each mutant on at most `n` of the benchmarks that reach it, those that run its site most (0 = all)")
	inert := operators.Names(func(op *mutate.Operator) bool { return op.Inert })
	sized := operators.Names(func(op *mutate.Operator) bool { return op.Size != "" })
	fs.BoolVar(&f.FullFilter, "full-filter", false, "run every test of the packages importing a mutated one on each mutant, also for the inert operators (default: only the tests whose baseline coverage reaches the mutant, none for the inert "+inert+"); for tests that depend on timing")
	fs.BoolVar(&f.Infer, "infer", true, "measure the smallest size of a sized injection ("+sized+") at a site first; when it is killed, count the larger ones there as killed without measuring them (false = measure every mutant)")
	fs.DurationVar(&f.Timeout, "timeout", 0, "functional-test timeout per test binary (0 = max(10 x baseline test time, 10s))")
}

// RegisterMeasure registers the flags of how benchmarks are sampled and
// decided, which compare shares with run and calibrate; minEffect is
// -min-effect's default.
func (f *CampaignFlags) RegisterMeasure(fs *flag.FlagSet, outDefault string, minEffect float64) {
	fs.StringVar(&f.Out, "out", outDefault, "results `dir`ectory")
	fs.IntVar(&f.Jobs, "j", runtime.GOMAXPROCS(0), "parallel builds and functional tests (measurement always runs alone)")
	fs.Int64Var(&f.Seed, "seed", 1, "`seed` for sampling, the measurement order and the bootstrap")
	f.RuleFlags.register(fs, applyRuleHelp())
	fs.StringVar(&f.Correction, "correction", "holm", "multiple-comparison correction over the tests of a mutant (compare: of a benchmark): none, bonferroni or holm")
	fs.IntVar(&f.MinSamples, "min-samples", 0, "samples each at the first look of the early-stopping rule (0 = the smallest count that can kill; -min-samples N -max-samples N is a fixed-N design)")
	fs.Float64Var(&f.MinEffect, "min-effect", minEffect, "a kill (compare: slower or faster) on time (any metric but B/op and allocs/op) also needs the median ratio beyond this `ratio`; 1 or 0 = off (perfmut calibrate suggests one for the machine)")
	fs.Float64Var(&f.Futility, "futility", score.DefaultFutilityPower, "early-stop bound: sampling stops at a look where every test's conditional `power` to reject by -max-samples is below it; 0 = no futility stop")
	fs.DurationVar(&f.SampleTime, "sample-time", engine.DefaultSampleTime, "about how long one benchmark sample takes: each benchmark's iteration count `N` is chosen on the baseline, and both sides run N iterations per sample")
	fs.Float64Var(&f.Censor, "censor", 3, "stop a sample that runs longer than this `factor` times the slowest sample of the other side (plus a slack of 50 to 100ms from the spread of its baseline samples) and count it as slower than every one of them; 0 = never")
	fs.StringVar(&f.Benchtime, "benchtime", "", "override -sample-time: Nx runs every benchmark N iterations per sample; a duration makes samples time-based, as go test runs them (b.N then differs between the sides)")
	fs.StringVar(&f.CPU, "cpu", "", "measure each benchmark at each of these comma-separated GOMAXPROCS `values`, as separate benchmarks of its family (as go test -cpu 1,2,4; default: GOMAXPROCS)")
	fs.StringVar(&f.SkipBench, "skip-bench", "", "never run the benchmarks this `regexp` matches (as go test -skip; added to skip-benchmarks: in perfmut.yaml)")
	fs.DurationVar(&f.BenchTO, "bench-timeout", engine.DefaultBenchTimeout, "deadline of each baseline benchmark process; a baseline benchmark that panics, fails or runs past it is left out with a warning")
	fs.BoolVar(&f.Verbose, "v", false, "show every command run")
	fs.StringVar(&f.Measure, "measure", MeasureTime, "what a sample `measures`: time (wall time), instructions (instructions per operation counted under valgrind, which the load does not change, for the mutants whose cost a count sees; the others on time) or auto (instructions where valgrind runs Go programs, else time)")
}

// rule checks the statistics flags and returns the kill rule they define.
func (f *CampaignFlags) rule() (score.Rule, error) {
	corr, err := score.ParseCorrection(f.Correction)
	if err != nil {
		return score.Rule{}, &inputerr.Error{Err: err}
	}
	test, err := f.RuleFlags.check()
	if err != nil {
		return score.Rule{}, err
	}
	if f.MinEffect == 0 {
		f.MinEffect = 1 // off
	}
	switch {
	case !(f.MinEffect >= 1 && !math.IsInf(f.MinEffect, 1)):
		return score.Rule{}, inputerr.Errorf("-min-effect %v out of range: want 0 (off) or a ratio of at least 1, e.g. 1.02", f.MinEffect)
	case f.Futility >= 1:
		return score.Rule{}, inputerr.Errorf("-futility %v out of range: want below 1, e.g. 0.1, or 0 for no futility stop", f.Futility)
	}
	rule := score.Rule{Alpha: f.Alpha, Correction: corr, Test: test, MaxSamples: f.MaxSamples, MinSamples: f.MinSamples, MinEffect: f.MinEffect, Seed: f.Seed, FutilityPower: f.Futility, Margin: f.Margin}
	if f.Futility <= 0 {
		rule.FutilityPower = score.NoFutility
	}
	if f.Margin < 0 {
		rule.Margin = score.NoMargin
	}
	if err := rule.Validate(); err != nil {
		return score.Rule{}, &inputerr.Error{Err: err}
	}
	return rule.WithDefaults(), nil
}

// Check checks every campaign flag (before anything is loaded) and returns
// the levels and the kill rule they define; bad values are *inputerr.Errors.
func (f *CampaignFlags) Check() (levels []string, rule score.Rule, err error) {
	if levels, err = runner.ParseOpt(f.Opt); err != nil {
		return nil, rule, &inputerr.Error{Err: err}
	}
	if f.Isolate != runner.IsolateOverlay && f.Isolate != runner.IsolateCopy {
		return nil, rule, inputerr.Errorf("bad -isolate %q: want overlay or copy", f.Isolate)
	}
	if rule, err = f.CheckMeasure(); err != nil {
		return nil, rule, err
	}
	switch {
	case f.MaxBenches < 0:
		return nil, rule, inputerr.Errorf("-max-benchmarks %d out of range: want 0 (all benchmarks) or more, e.g. 5", f.MaxBenches)
	case f.Timeout < 0:
		return nil, rule, inputerr.Errorf("bad -timeout %v: want a positive duration, or 0 for the default", f.Timeout)
	}
	return levels, rule, nil
}

// CheckMeasure checks the flags of how benchmarks are sampled and decided
// (those compare shares with run and calibrate) and returns the kill rule.
func (f *CampaignFlags) CheckMeasure() (rule score.Rule, err error) {
	if rule, err = f.rule(); err != nil {
		return rule, err
	}
	if f.cpus, err = engine.ParseCPU(f.CPU); err != nil {
		return rule, &inputerr.Error{Err: err}
	}
	switch {
	case f.SampleTime <= 0:
		return rule, inputerr.Errorf("bad -sample-time %v: want a positive duration, e.g. 20ms", f.SampleTime)
	case f.Censor < 0 || f.Censor > 0 && f.Censor < 1.5:
		return rule, inputerr.Errorf("bad -censor %v: want 0 (off) or a factor of at least 1.5, e.g. 3", f.Censor)
	case f.Jobs < 1:
		return rule, inputerr.Errorf("bad -j %d: want at least 1", f.Jobs)
	case f.BenchTO <= 0:
		return rule, inputerr.Errorf("bad -bench-timeout %v: want a positive duration, e.g. 2m", f.BenchTO)
	}
	if !slices.Contains([]string{MeasureTime, MeasureInstructions, MeasureAuto}, f.Measure) {
		return rule, inputerr.Errorf("bad -measure %q: want time, instructions or auto", f.Measure)
	}
	if f.Benchtime != "" && !engine.ValidBenchtime(f.Benchtime) {
		return rule, inputerr.Errorf("bad -benchtime %q: want a positive duration like 100ms or a count like 1000x", f.Benchtime)
	}
	for _, part := range strings.Split(f.SkipBench, "/") {
		if _, err := regexp.Compile(part); f.SkipBench != "" && err != nil {
			return rule, inputerr.Errorf("bad -skip-bench %q: %v", f.SkipBench, err)
		}
	}
	return rule, nil
}

// Campaign returns the runner.Campaign the flags (checked) define, without its
// module, mutants and overlay; runner.Campaign.Run records the settings it used.
func (f *CampaignFlags) Campaign(levels []string, rule score.Rule, cfg *config.Config, patterns, tags []string) *runner.Campaign {
	m := f.measurement(rule, cfg, tags)
	return &runner.Campaign{
		Levels:        levels,
		Infer:         f.Infer,
		FullFilter:    f.FullFilter,
		MaxBenchmarks: f.MaxBenches,
		Timeout:       f.Timeout,
		Isolate:       f.Isolate,
		Out:           f.Out,
		Resume:        f.Resume,
		Settings:      f.settings(m, patterns),
		Measurement:   m,
	}
}

// measurement is how the flags (checked) and cfg say benchmarks are
// built, run and judged, with the kill rule and the build tags; the caller
// sets Counting, Log and Progress.
func (f *CampaignFlags) measurement(rule score.Rule, cfg *config.Config, tags []string) engine.Measurement {
	skip := slices.Clone(cfg.SkipBenchmarks)
	if f.SkipBench != "" {
		skip = append(skip, f.SkipBench)
	}
	return engine.Measurement{
		Rule:         rule,
		Metric:       func(unit string) bool { return score.HigherIsWorse(unit, cfg.Metrics) },
		CustomUnits:  slices.Clone(cfg.Metrics),
		Benchtime:    f.Benchtime,
		SampleTime:   f.SampleTime,
		CensorFactor: f.Censor,
		SkipBench:    strings.Join(skip, "|"),
		BenchTimeout: f.BenchTO,
		CPU:          f.cpus,
		Jobs:         f.Jobs,
		Tags:         tags,
		Seed:         f.Seed,
		Verbose:      f.Verbose,
	}
}

// settings are the results.Settings of the flags and m, the measurement
// they define, as report.json and compare.json record them: built once,
// here. patterns are the packages as given; the module and the Go version
// are the run's to fill in.
func (f *CampaignFlags) settings(m engine.Measurement, patterns []string) results.Settings {
	s := results.Settings{Patterns: patterns, Opt: f.Opt, RuleSettings: results.RuleSettings{Rule: m.Rule}}
	s.Tags, s.Isolate = m.Tags, f.Isolate
	s.Benchtime, s.Censor, s.NoInfer, s.MaxBenchmarks, s.Seed = m.Benchtime, m.CensorFactor, !f.Infer, f.MaxBenches, m.Seed
	s.FullFilter, s.CPU = f.FullFilter, m.CPU
	if m.Benchtime == "" {
		s.SampleTime = m.SampleTime.String()
	}
	if m.Counting != nil {
		s.Measure, s.CountMinEffect = "instructions", m.Counting.MinEffect
	}
	return s
}
