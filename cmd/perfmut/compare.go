package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/perfmut/perfmut/internal/compare"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/results"
)

// defaultCompareMinEffect is compare's -min-effect: a change smaller than
// 5% is neither slower nor faster (the noise of a shared CI machine).
const defaultCompareMinEffect = 1.05

// compareFlags are perfmut compare's flags: the measurement flags it
// shares with run, and its own.
type compareFlags struct {
	campaignFlags
	all         bool
	generate    bool
	maxSlowdown string
	scoreDir    string
	historyDir  string
	attrib      attribFlags
}

func (f *compareFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.load.Dir, "C", "", "change to `dir` before doing anything (like go -C)")
	fs.StringVar(&f.load.Tags, "tags", "", "comma-separated build `tags`")
	fs.StringVar(&f.load.ConfigPath, "config", "", "configuration `file` whose metrics: and skip-benchmarks: apply (default: perfmut.yaml at the module root, if any)")
	f.registerMeasure(fs, "perfmut-compare", defaultCompareMinEffect)
	fs.BoolVar(&f.all, "all", false, "compare every benchmark of the packages, not only those whose timed loop runs changed code")
	fs.BoolVar(&f.generate, "generate", false, "also generate a concurrent benchmark (after SpeedGun) of each thread-safe type whose methods changed, calling the methods both versions export, and compare it; its file goes to -out's generated/")
	fs.StringVar(&f.scoreDir, "score", "", "results `dir`ectory of a perfmut run: the report shows the mutation score and survivors of the changed packages (how far same can be trusted)")
	fs.StringVar(&f.historyDir, "history", "", "`dir`ectory of a store of measured distributions: warn when NEW drifted from its history on this machine (a slow creep), then add both versions' samples")
	f.attrib.register(fs)
	fs.StringVar(&f.maxSlowdown, "max-slowdown", "0%", "exit with status 3 when a metric is slower with a ratio NEW/OLD (the median of the per-round ratios) beyond this `percentage` (5%) or fraction (0.05); 0% = any slower verdict")
}

func cmdCompare(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("perfmut compare", stderr, "Usage: perfmut compare [flags] OLD NEW [packages]\n\nCompares the benchmarks of two git revisions of the module (NEW may be WORKTREE,\nthe working tree): those whose timed loop runs changed code (-all: every one),\nmeasured interleaved on both; verdicts slower, faster, same or undecided.\nExit status 3 when a metric is slower beyond -max-slowdown.\n")
	var f compareFlags
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rule, err := f.checkMeasure()
	if err != nil {
		return err
	}
	counting, err := f.counting(ctx, fs, stderr)
	if err != nil {
		return err
	}
	maxSlow, err := report.ParseSlowdown(f.maxSlowdown)
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	if err := outdir.Check(f.out); err != nil {
		return &inputerr.Error{Err: err}
	}
	pos := fs.Args()
	if err := checkRevisions(pos); err != nil {
		return err
	}
	// perfmut.yaml's metrics: and skip-benchmarks: apply as in run.
	root, cfg, err := f.load.Config(ctx)
	if err != nil {
		return err
	}
	rule.MinSamples = 0 // each benchmark's first look follows its share of -alpha
	m := f.measurement(rule, cfg, f.load.TagList())
	m.Counting = counting
	c := &compare.Comparison{
		Measurement: m,
		Settings:    compareSettings(m, pos[2:]),
		Dir:         root,
		Out:         f.out,
		Old:         pos[0],
		New:         pos[1],
		Patterns:    pos[2:],
		All:         f.all,
		Generate:    f.generate,
		MinSamples:  f.minSamples,
		MaxSlowdown: maxSlow,
		ScoreDir:    f.scoreDir,
		ScoreFor:    report.ScoreFor,
		HistoryDir:  f.historyDir,
	}
	if err := f.attrib.apply(c); err != nil {
		return &inputerr.Error{Err: err}
	}
	c.Log, c.Progress = stderr, engine.IsTerminal(stderr)
	_, statErr := os.Stat(c.Out)
	rep, err := c.Compare(ctx)
	if err != nil && statErr != nil {
		outdir.RemoveUnused(c.Out) // created for nothing: no results directory left in the module
	}
	if err != nil && ctx.Err() != nil {
		return errors.New("interrupted: no verdict (the repository is as it was; the temporary directory is removed)")
	}
	if err != nil {
		return err
	}
	if err := report.WriteCompare(stdout, c.Out, rep); err != nil {
		return err
	}
	if len(rep.Failures) > 0 {
		return &exitErr{exitThreshold, fmt.Errorf("%d slower beyond -max-slowdown %s", len(rep.Failures), f.maxSlowdown)}
	}
	if n := rep.FailedCount(); n > 0 {
		return fmt.Errorf("%d benchmarks failed on a side (see the table)", n)
	}
	return nil
}

// checkRevisions checks compare's arguments: OLD NEW [packages], no flag
// among them.
func checkRevisions(pos []string) error {
	for _, a := range pos {
		if strings.HasPrefix(a, "-") {
			return inputerr.Errorf("flag %s after the revisions: put flags before OLD NEW (perfmut compare %s OLD NEW)", a, a)
		}
	}
	if len(pos) < 2 {
		return inputerr.Errorf("want two git revisions, OLD and NEW (NEW may be WORKTREE for the working tree), e.g. perfmut compare main WORKTREE ./...")
	}
	return nil
}

// compareSettings are the settings compare.json records: the packages as
// given and what m measures and decides by (engine.Measurement.RecordSettings).
// compare infers no verdict from another: it says so as -infer=false.
func compareSettings(m engine.Measurement, patterns []string) results.Settings {
	s := results.Settings{Patterns: patterns, NoInfer: true}
	m.RecordSettings(&s)
	return s
}
