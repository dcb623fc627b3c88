package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/runner"
)

func cmdReport(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fset := newFlagSet("report", stderr, "usage: perfmut report [-min-score X] [-max-undecided N] [-levels opt,noopt] [-format text|md|html|sarif|mte|all] [-path-prefix dir/] DIR\n\nRe-render the reports of a results directory (the -out of perfmut run, holding report.json).\nWith -format all (the default) it rewrites report.txt, report.md, report.html, report.sarif and\nmutation.json in DIR and prints the summary; with one format it prints that format to stdout.\nExit codes: 0 ok, 1 error, 2 usage or bad input, 3 score below -min-score or more undecided than -max-undecided.\n")
	var gate gateFlags
	gate.register(fset)
	levelsFlag := fset.String("levels", "", "optimization `levels` to show and gate on: opt, noopt or opt,noopt (default: all in the report)")
	format := fset.String("format", "all", "`format` to print: "+strings.Join(report.FormatNames(), ", ")+", or all (write every file into DIR and print the text summary)")
	pathPrefix := fset.String("path-prefix", "", "`prefix` for file paths in SARIF, when the module is in a sub-directory of the repository")
	if err := parseFlags(fset, args); err != nil {
		return err
	}
	if fset.NArg() != 1 {
		return usageErrorf("want one results directory (the -out of perfmut run), got %d arguments; see perfmut report -h", fset.NArg())
	}
	threshold, err := gate.check()
	if err != nil {
		return err
	}
	levels, err := report.ParseLevels(*levelsFlag)
	if err != nil {
		return usageError(err)
	}
	var formats []report.Format
	if *format != "all" {
		f, err := report.LookupFormat(*format)
		if err != nil {
			return usageErrorf("-format: %v", err)
		}
		formats = []report.Format{f}
	}

	rep, dir, err := runner.ReadResults(fset.Arg(0))
	if err != nil {
		return inputError(err)
	}
	if err := rep.CheckLevels(levels); err != nil {
		return usageError(err)
	}
	opts := report.Options{Levels: levels, Dir: dir, PathPrefix: *pathPrefix}
	if formats == nil {
		// Rewriting the reports of a directory a run is writing would race it.
		lock, err := runner.LockOut(dir)
		if err != nil {
			return inputError(err)
		}
		defer lock.Unlock()
		werr := report.Write(dir, rep, report.Formats(), opts)
		if err := report.Text(stdout, rep, opts); err != nil {
			return err
		}
		if werr != nil {
			return fmt.Errorf("cannot write the reports into %s: %v; the summary above is complete, and -format prints one report to stdout", dir, werr)
		}
	} else if err := formats[0].Render(stdout, rep, opts); err != nil {
		return err
	}
	return gate.apply(rep, threshold, levels)
}
