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
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/runner"
	"github.com/perfmut/perfmut/score"
)

// campaignFlags are the flags that say how a campaign builds, measures and
// decides. They are registered once, here, for every command that runs a
// campaign (run, calibrate), so that calibrate vets exactly the rule run
// applies (as x/tools registers an analysis driver's flags in one place).
// To add one: a field here, its registration in register, its check in
// campaign, its Campaign field there and, if it changes verdicts, its
// report.Settings field in settings (resume and merge compare those).
type campaignFlags struct {
	load       loadFlags
	opt        string
	jobs       int
	isolate    string
	seed       int64
	alpha      float64
	correction string
	test       string
	maxSamples int
	minSamples int
	minEffect  float64
	futility   float64
	maxBenches int
	cpu        string
	cpus       []int // parsed from cpu by checkMeasure
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
}

// register registers the campaign flags; outDefault is -out's default.
func (f *campaignFlags) register(fs *flag.FlagSet, outDefault string) {
	f.load.register(fs)
	f.registerMeasure(fs, outDefault, score.DefaultMinEffect)
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
func (f *campaignFlags) registerMeasure(fs *flag.FlagSet, outDefault string, minEffect float64) {
	fs.StringVar(&f.out, "out", outDefault, "results `dir`ectory")
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "parallel builds and functional tests (measurement always runs alone)")
	fs.Int64Var(&f.seed, "seed", 1, "`seed` for sampling, the measurement order and the bootstrap")
	fs.Float64Var(&f.alpha, "alpha", score.DefaultAlpha, "false-kill (compare: false-change) rate over all looks of the early-stopping rule")
	fs.StringVar(&f.correction, "correction", "holm", "multiple-comparison correction over the tests of a mutant (compare: of a benchmark): none, bonferroni or holm")
	fs.IntVar(&f.maxSamples, "max-samples", score.DefaultMaxSamples, "samples each of baseline and mutant (compare: OLD and NEW) at most")
	fs.IntVar(&f.minSamples, "min-samples", 0, "samples each at the first look of the early-stopping rule (0 = the smallest count that can kill; -min-samples N -max-samples N is a fixed-N design)")
	fs.StringVar(&f.test, "test", string(score.KS), "two-sample `test` of the kill rule: ks (Kolmogorov-Smirnov, any stochastic increase) or mwu (Mann-Whitney U, more power for shifts of discretized timings)")
	fs.Float64Var(&f.minEffect, "min-effect", minEffect, "a kill (compare: slower or faster) on time (any metric but B/op and allocs/op) also needs the median ratio beyond this `ratio`; 1 or 0 = off (perfmut calibrate suggests one for the machine)")
	fs.Float64Var(&f.futility, "futility", score.DefaultFutilityPower, "early-stop bound: sampling stops at a look where every test's conditional `power` to reject by -max-samples is below it; 0 = no futility stop")
	fs.DurationVar(&f.sampleTime, "sample-time", runner.DefaultSampleTime, "about how long one benchmark sample takes: each benchmark's iteration count `N` is chosen on the baseline, and both sides run N iterations per sample")
	fs.Float64Var(&f.censor, "censor", 3, "stop a sample that runs longer than this `factor` times the slowest sample of the other side (plus a slack of 20 to 100ms from the spread of its baseline samples) and count it as slower than every one of them; 0 = never")
	fs.StringVar(&f.benchtime, "benchtime", "", "override -sample-time: Nx runs every benchmark N iterations per sample; a duration makes samples time-based, as go test runs them (b.N then differs between the sides)")
	fs.StringVar(&f.cpu, "cpu", "", "measure each benchmark at each of these comma-separated GOMAXPROCS `values`, as separate benchmarks of its family (as go test -cpu 1,2,4; default: GOMAXPROCS)")
	fs.StringVar(&f.skipBench, "skip-bench", "", "never run the benchmarks this `regexp` matches (as go test -skip; added to skip-benchmarks: in perfmut.yaml)")
	fs.DurationVar(&f.benchTO, "bench-timeout", runner.DefaultBenchTimeout, "deadline of each baseline benchmark process; a baseline benchmark that panics, fails or runs past it is left out with a warning")
	fs.BoolVar(&f.verbose, "v", false, "show every command run")
}

var benchtimeRE = regexp.MustCompile(`^[0-9]+x$`)

// rule checks the statistics flags and returns the kill rule they define.
func (f *campaignFlags) rule() (score.Rule, error) {
	corr, err := score.ParseCorrection(f.correction)
	if err != nil {
		return score.Rule{}, usageError(err)
	}
	if !(f.alpha > 0 && f.alpha < 1) {
		return score.Rule{}, usageErrorf("-alpha %v out of range: want a level between 0 and 1, e.g. 0.05", f.alpha)
	}
	test, err := score.ParseTest(f.test)
	if err != nil {
		return score.Rule{}, usageError(err)
	}
	if f.minEffect == 0 {
		f.minEffect = 1 // off
	}
	if !(f.minEffect >= 1 && !math.IsInf(f.minEffect, 1)) {
		return score.Rule{}, usageErrorf("-min-effect %v out of range: want 0 (off) or a ratio of at least 1, e.g. 1.02", f.minEffect)
	}
	if f.maxSamples < 1 {
		return score.Rule{}, usageErrorf("-max-samples %d out of range: want at least 1, e.g. 30", f.maxSamples)
	}
	if f.futility >= 1 {
		return score.Rule{}, usageErrorf("-futility %v out of range: want below 1, e.g. 0.1, or 0 for no futility stop", f.futility)
	}
	rule := score.Rule{Alpha: f.alpha, Correction: corr, Test: test, MaxSamples: f.maxSamples, MinSamples: f.minSamples, MinEffect: f.minEffect, Seed: f.seed, FutilityPower: f.futility}
	if f.futility <= 0 {
		rule.FutilityPower = score.NoFutility
	}
	if err := rule.Validate(); err != nil {
		return score.Rule{}, usageError(err)
	}
	return rule.WithDefaults(), nil
}

// check checks every campaign flag before anything is loaded.
func (f *campaignFlags) check() (levels []string, rule score.Rule, err error) {
	if levels, err = runner.ParseOpt(f.opt); err != nil {
		return nil, rule, usageError(err)
	}
	if f.isolate != runner.IsolateOverlay && f.isolate != runner.IsolateCopy {
		return nil, rule, usageErrorf("bad -isolate %q: want overlay or copy", f.isolate)
	}
	if rule, err = f.checkMeasure(); err != nil {
		return nil, rule, err
	}
	switch {
	case f.maxBenches < 0:
		return nil, rule, usageErrorf("-max-benchmarks %d out of range: want 0 (all benchmarks) or more, e.g. 5", f.maxBenches)
	case f.timeout < 0:
		return nil, rule, usageErrorf("bad -timeout %v: want a positive duration, or 0 for the default", f.timeout)
	}
	return levels, rule, nil
}

// checkMeasure checks the flags registerMeasure registers.
func (f *campaignFlags) checkMeasure() (rule score.Rule, err error) {
	if rule, err = f.rule(); err != nil {
		return rule, err
	}
	if f.cpus, err = runner.ParseCPU(f.cpu); err != nil {
		return rule, usageError(err)
	}
	switch {
	case f.sampleTime <= 0:
		return rule, usageErrorf("bad -sample-time %v: want a positive duration, e.g. 20ms", f.sampleTime)
	case f.censor < 0 || f.censor > 0 && f.censor < 1.5:
		return rule, usageErrorf("bad -censor %v: want 0 (off) or a factor of at least 1.5, e.g. 3", f.censor)
	case f.jobs < 1:
		return rule, usageErrorf("bad -j %d: want at least 1", f.jobs)
	case f.benchTO <= 0:
		return rule, usageErrorf("bad -bench-timeout %v: want a positive duration, e.g. 2m", f.benchTO)
	}
	if _, err := time.ParseDuration(f.benchtime); f.benchtime != "" && err != nil && !benchtimeRE.MatchString(f.benchtime) {
		return rule, usageErrorf("bad -benchtime %q: want a duration like 100ms or a count like 1000x", f.benchtime)
	}
	if f.skipBench != "" {
		for _, part := range strings.Split(f.skipBench, "/") {
			if _, err := regexp.Compile(part); err != nil {
				return rule, usageErrorf("bad -skip-bench %q: %v", f.skipBench, err)
			}
		}
	}
	return rule, nil
}

// campaign returns the Campaign the flags define, without its module,
// mutants and overlay; Campaign.Run records the settings it used.
func (f *campaignFlags) campaign(levels []string, rule score.Rule, cfg *config.Config, patterns []string) *runner.Campaign {
	return &runner.Campaign{
		Rule:   rule,
		Metric: func(unit string) bool { return score.HigherIsWorse(unit, cfg.Metrics) },

		Levels:        levels,
		Benchtime:     f.benchtime,
		SampleTime:    f.sampleTime,
		CensorFactor:  f.censor,
		Infer:         f.infer,
		FullFilter:    f.fullFilter,
		SkipBench:     strings.Join(append(slices.Clone(cfg.SkipBenchmarks), nonEmpty(f.skipBench)...), "|"),
		BenchTimeout:  f.benchTO,
		MaxBenchmarks: f.maxBenches,
		CPU:           f.cpus,
		Timeout:       f.timeout,
		Jobs:          f.jobs,
		Isolate:       f.isolate,
		Tags:          f.load.TagList(),
		Seed:          f.seed,
		Out:           f.out,
		Resume:        f.resume,
		Settings:      report.Settings{Patterns: patterns, Opt: f.opt},
		Progress:      false,
		Verbose:       f.verbose,
	}
}

// nonEmpty is [s], or nothing if s is "".
func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
