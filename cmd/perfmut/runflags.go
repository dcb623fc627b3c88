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

// campaignSettings are the settings of how a campaign builds, measures and
// decides, as the perfmut commands take them on the command line. perfmut
// registers them once for every command that measures (run, calibrate,
// compare), so that calibrate vets exactly the rule run applies (as x/tools
// registers an analysis driver's flags in one place); check validates them
// and campaign turns them into a runner.Campaign. To add one: a field here, its
// registration in registerSettings or registerMeasure, its check in check or checkMeasure, its
// runner.Campaign field in runner.Campaign and, if it changes verdicts, its
// results.Settings field (resume and merge compare those).
type campaignSettings struct {
	opt     string // -opt both|on|off
	jobs    int
	isolate string
	seed    int64
	ruleFlags
	maxBenches int
	cpu        string // comma-separated GOMAXPROCS values
	sampleTime time.Duration
	censor     float64
	benchtime  string
	infer      bool
	fullFilter bool
	skipBench  string
	benchTO    time.Duration
	timeout    time.Duration
	out        string
	resume     bool
	verbose    bool
	measure    string // -measure time|instructions|auto

	cpus []int // parsed from cpu by checkMeasure
}

// registerSettings registers the campaign flags on fs (perfmut run and
// calibrate); outDefault is -out's default.
func (f *campaignSettings) registerSettings(fs *flag.FlagSet, outDefault string) {
	f.registerMeasure(fs, outDefault, score.DefaultMinEffect)
	fs.Float64Var(&f.margin, "margin", 0, "a survivor must rule out a slowdown of this `ratio`: every time and custom metric's 95% upper bound of the per-round ratios mutant/baseline at most it, else the mutant is sampled on and, at -max-samples, undecided; 0 = the default, the larger of 1.05 and -min-effect; -1 = off")
	fs.BoolVar(&f.resume, "resume", false, "continue the interrupted run in -out (finished results are not redone)")
	fs.StringVar(&f.opt, "opt", "both", "optimization `levels`: both, on (default compiler flags) or off (-gcflags=all=-N -l)")
	fs.StringVar(&f.isolate, "isolate", runner.IsolateOverlay, "how mutants are built: overlay (go build -overlay) or copy (a private copy of the module, for tests that read their own source files)")
	fs.IntVar(&f.maxBenches, "max-benchmarks", runner.DefaultMaxBenchmarks, "measure each mutant on at most `n` of the benchmarks that reach it, those that run its site most (0 = all)")
	inert := operators.Names(func(op *mutate.Operator) bool { return op.Inert })
	sized := operators.Names(func(op *mutate.Operator) bool { return op.Size != "" })
	fs.BoolVar(&f.fullFilter, "full-filter", false, "run every test of the packages importing a mutated one on each mutant, also for the inert operators (default: only the tests whose baseline coverage reaches the mutant, none for the inert "+inert+"); for tests that depend on timing")
	fs.BoolVar(&f.infer, "infer", true, "measure the smallest size of a sized injection ("+sized+") at a site first; when it is killed, count the larger ones there as killed without measuring them (false = measure every mutant)")
	fs.DurationVar(&f.timeout, "timeout", 0, "functional-test timeout per test binary (0 = max(10 x baseline test time, 10s))")
}

// registerMeasure registers the flags of how benchmarks are sampled and
// decided, which compare shares with run and calibrate; minEffect is
// -min-effect's default.
func (f *campaignSettings) registerMeasure(fs *flag.FlagSet, outDefault string, minEffect float64) {
	fs.StringVar(&f.out, "out", outDefault, "results `dir`ectory")
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "parallel builds and functional tests (measurement always runs alone)")
	fs.Int64Var(&f.seed, "seed", 1, "`seed` for sampling, the measurement order and the bootstrap")
	f.ruleFlags.register(fs, applyRuleHelp())
	fs.StringVar(&f.correction, "correction", "holm", "multiple-comparison correction over the tests of a mutant (compare: of a benchmark): none, bonferroni or holm")
	fs.IntVar(&f.minSamples, "min-samples", 0, "samples each at the first look of the early-stopping rule (0 = the smallest count that can kill; -min-samples N -max-samples N is a fixed-N design)")
	fs.Float64Var(&f.minEffect, "min-effect", minEffect, "a kill (compare: slower or faster) on time (any metric but B/op and allocs/op) also needs the median ratio beyond this `ratio`; 1 or 0 = off (perfmut calibrate suggests one for the machine)")
	fs.Float64Var(&f.futility, "futility", score.DefaultFutilityPower, "early-stop bound: sampling stops at a look where every test's conditional `power` to reject by -max-samples is below it; 0 = no futility stop")
	fs.DurationVar(&f.sampleTime, "sample-time", engine.DefaultSampleTime, "about how long one benchmark sample takes: each benchmark's iteration count `N` is chosen on the baseline, and both sides run N iterations per sample")
	fs.Float64Var(&f.censor, "censor", 3, "stop a sample that runs longer than this `factor` times the slowest sample of the other side (plus a slack of 50 to 100ms from the spread of its baseline samples) and count it as slower than every one of them; 0 = never")
	fs.StringVar(&f.benchtime, "benchtime", "", "override -sample-time: Nx runs every benchmark N iterations per sample; a duration makes samples time-based, as go test runs them (b.N then differs between the sides)")
	fs.StringVar(&f.cpu, "cpu", "", "measure each benchmark at each of these comma-separated GOMAXPROCS `values`, as separate benchmarks of its family (as go test -cpu 1,2,4; default: GOMAXPROCS)")
	fs.StringVar(&f.skipBench, "skip-bench", "", "never run the benchmarks this `regexp` matches (as go test -skip; added to skip-benchmarks: in perfmut.yaml)")
	fs.DurationVar(&f.benchTO, "bench-timeout", engine.DefaultBenchTimeout, "deadline of each baseline benchmark process; a baseline benchmark that panics, fails or runs past it is left out with a warning")
	fs.BoolVar(&f.verbose, "v", false, "show every command run")
	fs.StringVar(&f.measure, "measure", measureTime, "what a sample `measures`: time (wall time), instructions (instructions per operation counted under valgrind, which the load does not change, for the mutants whose cost a count sees; the others on time) or auto (instructions where valgrind runs Go programs, else time)")
}

// rule checks the statistics flags and returns the kill rule they define.
func (f *campaignSettings) rule() (score.Rule, error) {
	corr, err := score.ParseCorrection(f.correction)
	if err != nil {
		return score.Rule{}, &inputerr.Error{Err: err}
	}
	test, err := f.ruleFlags.check()
	if err != nil {
		return score.Rule{}, err
	}
	if f.minEffect == 0 {
		f.minEffect = 1 // off
	}
	switch {
	case !(f.minEffect >= 1 && !math.IsInf(f.minEffect, 1)):
		return score.Rule{}, inputerr.Errorf("-min-effect %v out of range: want 0 (off) or a ratio of at least 1, e.g. 1.02", f.minEffect)
	case f.futility >= 1:
		return score.Rule{}, inputerr.Errorf("-futility %v out of range: want below 1, e.g. 0.1, or 0 for no futility stop", f.futility)
	}
	rule := score.Rule{Alpha: f.alpha, Correction: corr, Test: test, MaxSamples: f.maxSamples, MinSamples: f.minSamples, MinEffect: f.minEffect, Seed: f.seed, FutilityPower: f.futility, Margin: f.margin}
	if f.futility <= 0 {
		rule.FutilityPower = score.NoFutility
	}
	if f.margin < 0 {
		rule.Margin = score.NoMargin
	}
	if err := rule.Validate(); err != nil {
		return score.Rule{}, &inputerr.Error{Err: err}
	}
	return rule.WithDefaults(), nil
}

// check checks every campaign flag (before anything is loaded) and returns
// the levels and the kill rule they define; bad values are *inputerr.Errors.
func (f *campaignSettings) check() (levels []string, rule score.Rule, err error) {
	if levels, err = runner.ParseOpt(f.opt); err != nil {
		return nil, rule, &inputerr.Error{Err: err}
	}
	if err := runner.CheckIsolate(f.isolate); err != nil {
		return nil, rule, err
	}
	if rule, err = f.checkMeasure(); err != nil {
		return nil, rule, err
	}
	switch {
	case f.maxBenches < 0:
		return nil, rule, inputerr.Errorf("-max-benchmarks %d out of range: want 0 (all benchmarks) or more, e.g. 5", f.maxBenches)
	case f.timeout < 0:
		return nil, rule, inputerr.Errorf("bad -timeout %v: want a positive duration, or 0 for the default", f.timeout)
	}
	return levels, rule, nil
}

// checkMeasure checks the flags of how benchmarks are sampled and decided
// (those compare shares with run and calibrate) and returns the kill rule.
func (f *campaignSettings) checkMeasure() (rule score.Rule, err error) {
	if rule, err = f.rule(); err != nil {
		return rule, err
	}
	if f.cpus, err = engine.ParseCPU(f.cpu); err != nil {
		return rule, &inputerr.Error{Err: err}
	}
	switch {
	case f.sampleTime <= 0:
		return rule, inputerr.Errorf("bad -sample-time %v: want a positive duration, e.g. 20ms", f.sampleTime)
	case f.censor < 0 || f.censor > 0 && f.censor < 1.5:
		return rule, inputerr.Errorf("bad -censor %v: want 0 (off) or a factor of at least 1.5, e.g. 3", f.censor)
	case f.jobs < 1:
		return rule, inputerr.Errorf("bad -j %d: want at least 1", f.jobs)
	case f.benchTO <= 0:
		return rule, inputerr.Errorf("bad -bench-timeout %v: want a positive duration, e.g. 2m", f.benchTO)
	}
	if !slices.Contains([]string{measureTime, measureInstructions, measureAuto}, f.measure) {
		return rule, inputerr.Errorf("bad -measure %q: want time, instructions or auto", f.measure)
	}
	if f.benchtime != "" && !engine.ValidBenchtime(f.benchtime) {
		return rule, inputerr.Errorf("bad -benchtime %q: want a positive duration like 100ms or a count like 1000x", f.benchtime)
	}
	for _, part := range strings.Split(f.skipBench, "/") {
		if _, err := regexp.Compile(part); f.skipBench != "" && err != nil {
			return rule, inputerr.Errorf("bad -skip-bench %q: %v", f.skipBench, err)
		}
	}
	return rule, nil
}

// campaign returns the runner.Campaign the flags (checked) define, without its
// module, mutants and overlay; runner.Campaign.Run records the settings it used.
func (f *campaignSettings) campaign(levels []string, rule score.Rule, cfg *config.Config, patterns, tags []string) *runner.Campaign {
	m := f.measurement(rule, cfg, tags)
	return &runner.Campaign{
		Levels:        levels,
		Infer:         f.infer,
		FullFilter:    f.fullFilter,
		MaxBenchmarks: f.maxBenches,
		Timeout:       f.timeout,
		Isolate:       f.isolate,
		Out:           f.out,
		Resume:        f.resume,
		Settings:      f.settings(patterns),
		Measurement:   m,
	}
}

// measurement is how the flags (checked) and cfg say benchmarks are
// built, run and judged, with the kill rule and the build tags; the caller
// sets Counting, Log and Progress.
func (f *campaignSettings) measurement(rule score.Rule, cfg *config.Config, tags []string) engine.Measurement {
	skip := slices.Clone(cfg.SkipBenchmarks)
	if f.skipBench != "" {
		skip = append(skip, f.skipBench)
	}
	return engine.Measurement{
		Rule:         rule,
		Metric:       func(unit string) bool { return score.HigherIsWorse(unit, cfg.Metrics) },
		CustomUnits:  slices.Clone(cfg.Metrics),
		Benchtime:    f.benchtime,
		SampleTime:   f.sampleTime,
		CensorFactor: f.censor,
		SkipBench:    strings.Join(skip, "|"),
		BenchTimeout: f.benchTO,
		CPU:          f.cpus,
		Jobs:         f.jobs,
		Tags:         tags,
		Seed:         f.seed,
		Verbose:      f.verbose,
	}
}

// settings are the results.Settings the command chose: the packages as
// given and -opt. runner.Campaign.RecordSettings records the rest, from
// the campaign itself.
func (f *campaignSettings) settings(patterns []string) results.Settings {
	return results.Settings{Patterns: patterns, Opt: f.opt}
}
