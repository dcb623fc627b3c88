package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfmut/perfmut/changes"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/runner"
	"github.com/perfmut/perfmut/score"
)

// runFlags are perfmut run's flags: the campaign flags and its own.
type runFlags struct {
	campaignFlags
	sample   int
	shard    string
	minScore string
	changed  string
	since    string
	plan     bool
	within   time.Duration
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.campaignFlags.register(fs, "perfmut-out")
	f.load.registerMutants(fs)
	fs.StringVar(&f.changed, "changed-since", "", "run only the mutants on lines added or changed since git `rev` (from its merge base with HEAD, uncommitted edits included)")
	fs.StringVar(&f.since, "since", "", "reuse the results of the earlier campaign in `dir` whose inputs did not change (Go version, machine, settings, the mutated package and the packages that judged it); run the others")
	fs.BoolVar(&f.plan, "plan", false, "build no mutant: run the baseline steps and print the campaign's expected cost per level (mutants to build, test and measure; build, test and measurement time)")
	fs.DurationVar(&f.within, "within", 0, "with -plan: also print the -shard count whose shards each fit this wall `time` (e.g. 30m)")
	fs.IntVar(&f.sample, "sample", 0, "run a seeded random sample of `n` mutants (0 = all)")
	fs.StringVar(&f.shard, "shard", "", "run shard `k/n` (1 <= k <= n) of the mutants; combine the shards with perfmut merge")
	fs.StringVar(&f.minScore, "min-score", "", "exit with status 3 if the mutation score at a level is below this `fraction` (0.8) or percentage (80%)")
}

func cmdRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("perfmut run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: perfmut run [flags] [packages]\n\nRuns a mutation campaign: builds every mutant, filters it with the module's tests,\nmeasures the benchmarks that reach it and writes the verdicts to -out.\n\nFlags:")
		fs.PrintDefaults()
	}
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

	patterns := patternsOrAll(fs.Args())
	if root, err := mutate.ModuleRoot(ctx, f.load.DirOrDot()); err == nil {
		// Say so before loading: overlays cannot replace files there.
		if err := runner.CheckModuleDir(root); err != nil {
			return usageError(err)
		}
	}
	ld, err := f.load.load(ctx, patterns)
	if err != nil {
		return err
	}
	prog, mutants := ld.Program, ld.Mutants
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
	c := f.campaign(levels, rule, ld.Config, patterns)
	c.Since = f.since
	judges, err := prog.Judges(ctx)
	if err != nil {
		return err
	}
	c.Module, c.Packages, c.Mutants, c.Overlay, c.Diff = prog.Module, judges, mutants, prog.Overlay, prog.Diff
	c.Settings.Sample, c.Settings.Shard, c.Settings.Operators, c.Settings.ChangedSince = f.sample, f.shard, ld.Operators, f.changed
	c.Log, c.Progress = stderr, isTerminal(stderr)
	for _, w := range prog.Warnings {
		fmt.Fprintf(stderr, "perfmut: warning: %s\n", w)
	}
	fmt.Fprintf(stderr, "perfmut: %d %s in %s\n", len(mutants), english.Word(len(mutants), "mutant"), prog.Module.Path)
	if f.plan {
		p, err := c.Plan(ctx, f.within)
		if err != nil {
			return err
		}
		return report.WritePlan(stdout, p)
	}
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

// checkRun checks run's own flags (the campaign flags are checked by
// check) and returns the shard, if any, and -min-score (-1 for none).
func (f *runFlags) checkRun() (shardK, shardN int, minScore float64, err error) {
	if f.shard != "" {
		if shardK, shardN, err = runner.ParseShard(f.shard); err != nil {
			return 0, 0, 0, usageError(err)
		}
	}
	if f.sample < 0 {
		return 0, 0, 0, usageErrorf("bad -sample %d: want a count of mutants, or 0 for all", f.sample)
	}
	minScore = -1.0
	if f.minScore != "" {
		if minScore, err = report.ParseMinScore(f.minScore); err != nil {
			return 0, 0, 0, usageError(err)
		}
	}
	if err := runner.CheckOutDir(f.out); err != nil {
		return 0, 0, 0, usageError(err)
	}
	if f.within < 0 || f.within > 0 && !f.plan {
		return 0, 0, 0, usageErrorf("-within %s needs -plan and a positive duration", f.within)
	}
	if f.since != "" {
		if _, err := os.Stat(filepath.Join(f.since, runner.ReportFile)); err != nil {
			return 0, 0, 0, usageErrorf("-since %s: no %s there; give the results directory of an earlier perfmut run", f.since, runner.ReportFile)
		}
	}
	return shardK, shardN, minScore, nil
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
