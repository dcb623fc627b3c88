package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/perfmut/perfmut/internal/calibrate"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/internal/runner"
)

func cmdCalibrate(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("calibrate", stderr, "Usage: perfmut calibrate [-trials K] [-kinds both|self|null] [-opt both|on|off] [run's statistics flags] [packages]\n\nMeasure the false-kill rate of perfmut run's measurement and kill rule on this machine with A/A\nruns: the baseline against itself and against null mutants (an added function that changes the\nbinary's layout but not the work), K trials each at benchmarked sites. Prints the empirical\nfalse-kill rate with its exact 95% interval next to alpha, per optimization level, and warns\nwhen it exceeds alpha.\n")
	var f campaignFlags
	f.register(fs, "")
	trials := fs.Int("trials", 40, "trials `K` of each kind (baseline vs itself, baseline vs null mutant) per level")
	kinds := fs.String("kinds", "both", "which comparisons: both, self (baseline vs itself) or null (baseline vs null mutants)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *trials < 1 {
		return inputerr.Errorf("bad -trials %d: want at least 1 (default 40)", *trials)
	}
	kindList, err := calibrate.ParseKinds(*kinds)
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	levels, rule, err := f.check()
	if err != nil {
		return err
	}
	counting, err := f.counting(ctx, fs, stderr)
	if err != nil {
		return err
	}
	if f.resume && f.out == "" {
		return inputerr.Errorf("-resume needs -out DIR: the directory an interrupted calibrate -out DIR kept")
	}
	if f.out != "" {
		if err := runner.CheckOutResults(f.out, f.resume); err != nil {
			return err
		}
	}
	patterns := patternsOrAll(fs.Args())
	ld, err := f.loadModule(ctx, patterns)
	if err != nil {
		return err
	}
	cc := f.campaign(levels, rule, ld.Config, patterns, f.load.TagList())
	cc.Module, cc.Packages, cc.Mutants = ld.Program.Module, ld.Program.Packages, ld.Mutants
	cc.Counting = counting
	cc.Log, cc.Progress = stderr, engine.IsTerminal(stderr)
	c := &calibrate.Calibration{Campaign: *cc, Dir: f.load.DirOrDot(), Trials: *trials, Kinds: kindList}
	rep, err := c.Calibrate(ctx)
	if err != nil {
		return err
	}
	rows := report.TallyCalibration(rep, levels, kindList)
	report.WriteCalibration(stdout, rep, rows, rule.Alpha)
	if f.out != "" {
		fmt.Fprintf(stdout, "\nTrial results are in %s (report.json, samples/).\n", f.out)
	}
	for _, r := range rows {
		if r.N > 0 {
			return nil
		}
	}
	return errors.New("no trial was measured: no benchmark runs the chosen sites in its timed loop; calibrate packages whose benchmarks exercise their code")
}
