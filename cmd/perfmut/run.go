package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// runFlags are perfmut run's flags: the campaign flags and its own.
type runFlags struct {
	campaignFlags
	gate   gateFlags
	sample int
	shard  string
	since  string
	plan   runner.PlanMode
	within time.Duration
	fmap   mapFlags
	gen    bool
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.campaignFlags.register(fs, "perfmut-out")
	f.load.registerMutants(fs)
	registerChangedSince(fs, &f.load.ChangedSince, "run only the mutants on lines", "")
	fs.StringVar(&f.since, "since", "", "reuse the results of the earlier campaign in `dir` whose inputs did not change (Go version, machine, settings, the mutated package and the packages that judged it); run the others")
	fs.Var(&f.plan, "plan", "build no mutant: print the campaign's expected cost per level (mutants to build, test and measure; build, test and measurement time), within about a minute from the source and a few timed builds, with its range; -plan=exact runs the baseline steps first and plans from coverage")
	fs.DurationVar(&f.within, "within", 0, "with -plan: also print the -shard count whose shards each fit this wall `time` (e.g. 30m)")
	fs.IntVar(&f.sample, "sample", 0, "run a seeded random sample of `n` mutants (0 = all)")
	fs.StringVar(&f.shard, "shard", "", "run shard `k/n` (1 <= k <= n) of the mutants; combine the shards with perfmut merge")
	f.gate.register(fs)
	f.fmap.register(fs)
	fs.BoolVar(&f.gen, "generate", false, "after the campaign, run perfmut generate on its no-coverage, surviving and undecided mutants and mark those a generated benchmark kills in the reports")
}

func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("perfmut run", stderr, "Usage: perfmut run [flags] [packages]\n\nRuns a mutation campaign: builds every mutant, filters it with the module's tests,\nmeasures the benchmarks that reach it and writes the verdicts to -out.\n")
	var f runFlags
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}

	// Check every flag before loading anything.
	levels, rule, err := f.check()
	if err != nil {
		return err
	}
	shardK, shardN, minScore, err := f.checkRun()
	if err != nil {
		return err
	}
	counting, err := f.counting(ctx, fs, stderr)
	if counting != nil && f.resume && f.measure == measureAuto && runner.ResumedMeasure(f.out) == measureTime {
		fmt.Fprintf(stderr, "perfmut: -measure auto: measuring time, as the run -resume continues did\n")
		counting = nil
	}
	if err != nil {
		return err
	}

	patterns := patternsOrAll(fs.Args())
	f.load.ChangeLog = stderr
	ld, err := f.loadModule(ctx, patterns)
	if err != nil {
		return err
	}
	c, err := f.newCampaign(ctx, ld, levels, rule, counting, patterns, shardK, shardN)
	if err != nil {
		return err
	}
	prog, mutants := ld.Program, c.Mutants
	c.Log, c.Progress = stderr, engine.IsTerminal(stderr)
	if !f.plan.On() {
		// A results directory Run would refuse is said in one line,
		// before anything else is printed.
		if err := c.CheckOut(ctx); err != nil {
			return err
		}
	}
	for _, w := range prog.Warnings {
		fmt.Fprintf(stderr, "perfmut: warning: %s\n", w)
	}
	fmt.Fprintf(stderr, "perfmut: %d %s in %s\n", len(mutants), english.Word(len(mutants), "mutant"), prog.Module.Path)
	if f.plan.On() {
		p, err := f.plan.Plan(ctx, c, f.within)
		if err != nil {
			return err
		}
		p.FunctionMap = c.MapPlan()
		return report.WritePlan(stdout, p)
	}
	rep, err := c.Run(ctx)
	if err != nil {
		return err
	}
	return f.finish(ctx, stdout, stderr, ld, c, mutants, patterns, rep, minScore)
}

// newCampaign is the campaign the flags define on the loaded module: its
// mutants sampled (-sample) and sharded (-shard), the settings the
// command chose recorded.
func (f *runFlags) newCampaign(ctx context.Context, ld *load.Loaded, levels []string, rule score.Rule, counting *engine.Counting, patterns []string, shardK, shardN int) (*runner.Campaign, error) {
	prog := ld.Program
	mutants := runner.SampleMutants(ld.Mutants, f.sample, f.seed)
	if shardN > 0 {
		mutants = runner.Shard(mutants, shardK, shardN)
	}
	c := f.campaign(levels, rule, ld.Config, patterns, f.load.TagList())
	c.Since = f.since
	c.Counting = counting
	f.fmap.apply(&c.Settings)
	judges, err := prog.Judges(ctx)
	if err != nil {
		return nil, err
	}
	c.Module, c.Packages, c.Mutants, c.Overlay, c.Diff = prog.Module, judges, mutants, prog.Overlay, prog.Diff
	c.Settings.Sample, c.Settings.Shard, c.Settings.Operators, c.Settings.ChangedSince = f.sample, f.shard, ld.Operators, f.load.ChangedSince
	if f.load.Mutants != "" {
		c.Settings.Mutants = mutantIDs(ld.Mutants)
	}
	return c, nil
}

// finish writes the reports of the finished campaign c, prints its
// scores, runs -generate on its mutants and applies the gate.
func (f *runFlags) finish(ctx context.Context, stdout, stderr io.Writer, ld *load.Loaded, c *runner.Campaign, mutants []mutate.Mutant, patterns []string, rep *results.Report, minScore float64) error {
	werr := report.WriteAll(c.Out, rep)
	report.WriteScores(stdout, rep)
	fmt.Fprintf(stdout, "results in %s\n", c.Out)
	if werr != nil {
		return fmt.Errorf("writing the reports: %w (report.json is complete; re-render with perfmut report %s)", werr, c.Out)
	}
	if err := f.generateAfter(ctx, stdout, stderr, ld, mutants, c, patterns, rep); err != nil {
		return err
	}
	return f.gate.apply(rep, minScore, nil)
}

// checkRun checks run's own flags (the campaign flags are checked by
// check) and returns the shard, if any, and -min-score (-1 for none).
func (f *runFlags) checkRun() (shardK, shardN int, minScore float64, err error) {
	if f.shard != "" {
		if shardK, shardN, err = runner.ParseShard(f.shard); err != nil {
			return 0, 0, 0, &inputerr.Error{Err: err}
		}
	}
	if f.sample < 0 {
		return 0, 0, 0, inputerr.Errorf("bad -sample %d: want a count of mutants, or 0 for all", f.sample)
	}
	if minScore, err = f.gate.check(); err != nil {
		return 0, 0, 0, err
	}
	if err := outdir.CheckFor(f.out, f.resume); err != nil {
		return 0, 0, 0, &inputerr.Error{Err: err}
	}
	if f.within < 0 || f.within > 0 && !f.plan.On() {
		return 0, 0, 0, inputerr.Errorf("-within %s needs -plan and a positive duration", f.within)
	}
	if err := runner.CheckSince(f.since); err != nil {
		return 0, 0, 0, &inputerr.Error{Err: err}
	}
	return shardK, shardN, minScore, nil
}

// mutantIDs are the IDs of mutants, sorted: the -mutants setting a
// resumed run and the shards of a merge must share.
func mutantIDs(mutants []mutate.Mutant) []string {
	ids := make([]string, len(mutants))
	for i, m := range mutants {
		ids[i] = m.ID
	}
	slices.Sort(ids)
	return ids
}
