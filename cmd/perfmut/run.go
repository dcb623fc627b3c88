package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/perfmut/perfmut/changes"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/runner"
	"github.com/perfmut/perfmut/score"
)

// runFlags are perfmut run's own flags.
type runFlags struct {
	load       loadFlags
	out        string
	opt        string
	jobs       int
	isolate    string
	resume     bool
	sample     int
	seed       int64
	shard      string
	alpha      float64
	correction string
	maxSamples int
	minSamples int
	minEffect  float64
	futility   float64
	benchtime  string
	sampleTime time.Duration
	censor     float64
	infer      bool
	skipBench  string
	benchTO    time.Duration
	timeout    time.Duration
	minScore   string
	maxBenches int
	changed    string
	verbose    bool
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.load.register(fs)
	f.load.registerMutants(fs)
	fs.StringVar(&f.changed, "changed-since", "", "run only the mutants on lines added or changed since git `rev` (from its merge base with HEAD, uncommitted edits included)")
	fs.StringVar(&f.out, "out", "perfmut-out", "results `dir`ectory: journal.jsonl, samples/, report.json")
	fs.StringVar(&f.opt, "opt", "both", "optimization `levels`: both, on (default compiler flags) or off (-gcflags=all=-N -l)")
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "parallel builds and functional tests (measurement always runs alone)")
	fs.StringVar(&f.isolate, "isolate", "overlay", "how mutants are built: overlay (go build -overlay) or copy (a private copy of the module, for tests that read their own source files)")
	fs.BoolVar(&f.resume, "resume", false, "continue the interrupted run in -out (finished mutants are not redone)")
	fs.IntVar(&f.sample, "sample", 0, "run a seeded random sample of `n` mutants (0 = all)")
	fs.Int64Var(&f.seed, "seed", 1, "`seed` for -sample, the measurement order and the bootstrap")
	fs.StringVar(&f.shard, "shard", "", "run shard `k/n` (1 <= k <= n) of the mutants; combine the shards with perfmut merge")
	fs.Float64Var(&f.alpha, "alpha", score.DefaultAlpha, "false-kill rate over all looks of the early-stopping rule")
	fs.StringVar(&f.correction, "correction", "holm", "multiple-comparison correction over a mutant's benchmarks and metrics: none, bonferroni or holm")
	fs.IntVar(&f.maxSamples, "max-samples", score.DefaultMaxSamples, "samples each of baseline and mutant at most")
	fs.IntVar(&f.maxBenches, "max-benchmarks", runner.DefaultMaxBenchmarks, "measure each mutant on at most `n` of the benchmarks that reach it, those that run its site most (0 = all)")
	fs.IntVar(&f.minSamples, "min-samples", 0, "samples each at the first look of the early-stopping rule (0 = the smallest count that can kill; -min-samples N -max-samples N is a fixed-N design)")
	fs.Float64Var(&f.minEffect, "min-effect", 0, "a kill also needs the median ratio mutant/baseline above this `ratio` (e.g. 1.02); 0 = off")
	fs.Float64Var(&f.futility, "futility", score.DefaultFutilityPower, "early-survive bound: a mutant stops as survived at a look where every test's conditional `power` to kill by -max-samples is below it; 0 = no futility stop: every survivor runs to -max-samples")
	fs.DurationVar(&f.sampleTime, "sample-time", runner.DefaultSampleTime, "about how long one benchmark sample takes: each benchmark's iteration count `N` is chosen on the baseline, and both sides run N iterations per sample")
	fs.Float64Var(&f.censor, "censor", 3, "stop a mutant sample that runs longer than this `factor` times the slowest baseline sample (plus 100ms) and count it as slower than every baseline sample; 0 = never")
	fs.StringVar(&f.skipBench, "skip-bench", "", "never run the benchmarks this `regexp` matches (as go test -skip; added to skip-benchmarks: in perfmut.yaml)")
	fs.DurationVar(&f.benchTO, "bench-timeout", runner.DefaultBenchTimeout, "deadline of each baseline benchmark process; a baseline benchmark that panics, fails or runs past it is left out with a warning")
	fs.BoolVar(&f.infer, "infer", true, "measure the smallest size of spin-loop, sleep and alloc-churn at a site first; when it is killed, count the larger ones there as killed without measuring them (false = measure every mutant)")
	fs.StringVar(&f.benchtime, "benchtime", "", "override -sample-time: Nx runs every benchmark N iterations per sample; a duration makes samples time-based, as go test runs them (b.N then differs between the sides)")
	fs.DurationVar(&f.timeout, "timeout", 0, "functional-test timeout per test binary (0 = max(10 x baseline test time, 10s))")
	fs.StringVar(&f.minScore, "min-score", "", "exit with status 3 if the mutation score at a level is below this `fraction` (0.8) or percentage (80%)")
	fs.BoolVar(&f.verbose, "v", false, "show every command run")
}

var benchtimeRE = regexp.MustCompile(`^[0-9]+x$`)

func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("perfmut run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: perfmut run [flags] [packages]\n\nRuns a mutation campaign: builds every mutant, filters it with the module's tests,\nmeasures the benchmarks that reach it and writes the verdicts to -out.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return usageError(errHelp)
		}
		return usageError(err)
	}

	// Check every flag before loading anything.
	levels, err := runner.ParseOpt(f.opt)
	if err != nil {
		return usageError(err)
	}
	var shardK, shardN int
	if f.shard != "" {
		if shardK, shardN, err = runner.ParseShard(f.shard); err != nil {
			return usageError(err)
		}
	}
	if f.isolate != runner.IsolateOverlay && f.isolate != runner.IsolateCopy {
		return usageErrorf("bad -isolate %q: want overlay or copy", f.isolate)
	}
	corr, err := score.ParseCorrection(f.correction)
	if err != nil {
		return usageError(err)
	}
	if !(f.alpha > 0 && f.alpha < 1) {
		return usageErrorf("-alpha %v out of range: want a level between 0 and 1, e.g. 0.05", f.alpha)
	}
	if f.maxBenches < 0 {
		return usageErrorf("-max-benchmarks %d out of range: want 0 (all benchmarks) or more, e.g. 5", f.maxBenches)
	}
	if f.maxSamples < 1 {
		return usageErrorf("-max-samples %d out of range: want at least 1, e.g. 30", f.maxSamples)
	}
	rule := score.Rule{Alpha: f.alpha, Correction: corr, MaxSamples: f.maxSamples, MinSamples: f.minSamples, MinEffect: f.minEffect, Seed: f.seed, FutilityPower: f.futility}
	if f.futility >= 1 {
		return usageErrorf("-futility %v out of range: want below 1, e.g. 0.1, or 0 for no futility stop", f.futility)
	}
	if f.futility <= 0 {
		rule.FutilityPower = score.NoFutility
	}
	if err := rule.Validate(); err != nil {
		return usageError(err)
	}
	rule = rule.WithDefaults()
	if f.sampleTime <= 0 {
		return usageErrorf("bad -sample-time %v: want a positive duration, e.g. 20ms", f.sampleTime)
	}
	if f.censor < 0 || f.censor > 0 && f.censor < 1.5 {
		return usageErrorf("bad -censor %v: want 0 (off) or a factor of at least 1.5, e.g. 3", f.censor)
	}
	if _, err := time.ParseDuration(f.benchtime); f.benchtime != "" && err != nil && !benchtimeRE.MatchString(f.benchtime) {
		return usageErrorf("bad -benchtime %q: want a duration like 100ms or a count like 1000x", f.benchtime)
	}
	if f.sample < 0 {
		return usageErrorf("bad -sample %d: want a count of mutants, or 0 for all", f.sample)
	}
	if f.jobs < 1 {
		return usageErrorf("bad -j %d: want at least 1", f.jobs)
	}
	minScore := -1.0
	if f.minScore != "" {
		if minScore, err = report.ParseMinScore(f.minScore); err != nil {
			return usageError(err)
		}
	}
	if f.timeout < 0 {
		return usageErrorf("bad -timeout %v: want a positive duration, or 0 for the default", f.timeout)
	}
	if err := checkOutDir(f.out); err != nil {
		return usageError(err)
	}

	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	dir := f.load.dir
	if dir == "" {
		dir = "."
	}
	if root, err := mutate.ModuleRoot(ctx, dir); err == nil {
		// Say so before loading: overlays cannot replace files there.
		if err := runner.CheckModuleDir(root); err != nil {
			return usageError(err)
		}
	}
	prog, mutants, cfg, err := f.load.load(ctx, patterns)
	if err != nil {
		return err
	}
	if err := runner.CheckModuleDir(prog.Module.Dir); err != nil {
		return usageError(err)
	}
	if f.changed != "" {
		lines, err := changes.Lines(ctx, prog.Module.Dir, f.changed)
		if err != nil {
			return usageError(err)
		}
		kept := changes.Filter(mutants, lines)
		if err := changes.Summary(stderr, f.changed, lines, mutants, kept); err != nil {
			return err
		}
		mutants = kept
	}
	mutants = runner.SampleMutants(mutants, f.sample, f.seed)
	if shardN > 0 {
		mutants = runner.Shard(mutants, shardK, shardN)
	}
	var opNames []string
	if f.load.operators != "" {
		for _, n := range strings.Split(f.load.operators, ",") {
			if n = strings.TrimSpace(n); n != "" {
				opNames = append(opNames, n)
			}
		}
	} else {
		opNames = cfg.Operators
	}
	var tags []string
	for _, t := range strings.Split(f.load.tags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	c := &runner.Campaign{
		Module:    prog.Module,
		Packages:  prog.Packages,
		Mutants:   mutants,
		Overlay:   prog.Overlay,
		Diff:      prog.Diff,
		Decide:    runner.RuleDecider(rule),
		Metric:    func(unit string) bool { return score.HigherIsWorse(unit, cfg.Metrics) },
		Summarize: runner.RuleSummarizer(rule),

		Levels:        levels,
		Benchtime:     f.benchtime,
		SampleTime:    f.sampleTime,
		CensorFactor:  f.censor,
		Infer:         f.infer,
		SkipBench:     strings.Join(append(slices.Clone(cfg.SkipBenchmarks), nonEmpty(f.skipBench)...), "|"),
		BenchTimeout:  f.benchTO,
		MaxSamples:    rule.MaxSamples,
		MaxBenchmarks: f.maxBenches,
		Timeout:       f.timeout,
		Jobs:          f.jobs,
		Isolate:       f.isolate,
		Tags:          tags,
		Seed:          f.seed,
		Out:           f.out,
		Resume:        f.resume,
		Settings: report.Settings{
			Patterns: patterns, Opt: f.opt, Alpha: rule.Alpha, Correction: string(rule.Correction),
			MaxSamples: rule.MaxSamples, MinEffect: rule.MinEffect, Benchtime: f.benchtime,
			SampleTime: f.sampleTime.String(), Censor: f.censor, NoInfer: !f.infer,
			MinSamples: rule.MinSamples, FutilityPower: rule.FutilityPower,
			Seed: f.seed, Sample: f.sample, Shard: f.shard, Operators: opNames,
			ChangedSince: f.changed, MaxBenchmarks: f.maxBenches,
		},
		Log:      stderr,
		Progress: isTerminal(stderr),
		Verbose:  f.verbose,
	}
	fmt.Fprintf(stderr, "perfmut: %d mutants in %s\n", len(mutants), prog.Module.Path)
	rep, err := c.Run(ctx)
	if err != nil {
		return err
	}
	werr := report.WriteAll(c.Out, rep)
	printScores(stdout, rep, c.Out)
	if werr != nil {
		return fmt.Errorf("writing the reports: %w (report.json is complete; re-render with perfmut report %s)", werr, c.Out)
	}
	if minScore >= 0 {
		if err := report.Gate(rep, minScore, nil); err != nil {
			var below *report.BelowError
			if errors.As(err, &below) {
				return &exitErr{exitThreshold, err}
			}
			return err
		}
	}
	return nil
}

// checkOutDir says early, in one line, when -out cannot be written. It
// creates nothing (a run that fails on bad input leaves no results
// directory behind): an existing -out must be a writable directory, a new
// one must have a directory as its nearest existing ancestor.
func checkOutDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		for p := filepath.Dir(filepath.Clean(dir)); ; p = filepath.Dir(p) {
			pi, err := os.Stat(p)
			if err == nil {
				if !pi.IsDir() {
					return fmt.Errorf("-out %s: cannot create it: %s is not a directory", dir, p)
				}
				return nil
			}
			if p == filepath.Dir(p) {
				return nil
			}
		}
	}
	if !fi.IsDir() {
		return fmt.Errorf("-out %s is a file, not a directory; choose another directory with -out", dir)
	}
	f, err := os.CreateTemp(dir, ".perfmut-probe-")
	if err != nil {
		return fmt.Errorf("-out %s is not writable: %v; choose another directory with -out", dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// printScores prints the score per level.
func printScores(w io.Writer, rep *report.Report, out string) {
	for _, l := range []string{report.Opt, report.NoOpt} {
		s, ok := rep.Score[l]
		if !ok {
			continue
		}
		counts := map[score.Status]int{}
		for _, m := range rep.Mutants {
			if r := m.Results[l]; r != nil {
				counts[r.Status]++
			}
		}
		var parts []string
		for _, st := range score.Statuses {
			if counts[st] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
			}
		}
		fmt.Fprintf(w, "%-5s score %5.1f%% (%d killed of %d valid; covered %.1f%%): %s\n",
			l, 100*s.Score, s.Killed, s.Valid, 100*s.Covered, strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "results in %s\n", out)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// fillRule returns the rule with its defaults, as the runner and the
// report record them.
func fillRule(r score.Rule) score.Rule { return r.WithDefaults() }

// nonEmpty is [s], or nothing if s is "".
func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
