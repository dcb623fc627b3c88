package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/internal/runner"
)

// reportUsage is report's help text; the formats come from the
// registry (report.Formats).
func reportUsage() string {
	var files []string
	for _, f := range report.Formats() {
		files = append(files, f.File)
	}
	return "Usage: perfmut report [-min-score X] [-max-undecided N] [-levels opt,noopt] [-format " + strings.Join(report.FormatNames(), "|") + "|all] [-path-prefix dir/] DIR\n\n" +
		"Re-render the reports of a results directory (the -out of perfmut run, holding report.json).\n" +
		"With -format all (the default) it rewrites every format's file in DIR (" + strings.Join(files, ", ") + ")\n" +
		"and prints the summary; with one format it prints that format to stdout.\n" +
		"Exit codes: 0 ok, 1 error, 2 usage or bad input, 3 score below -min-score or more undecided than -max-undecided.\n"
}

func cmdReport(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fset := newFlagSet("report", stderr, reportUsage())
	var gate gateFlags
	gate.register(fset)
	levelsFlag := fset.String("levels", "", "optimization `levels` to show and gate on: opt, noopt or opt,noopt (default: all in the report)")
	format := fset.String("format", "all", "`format` to print: "+strings.Join(report.FormatNames(), ", ")+", or all (write every file into DIR and print the text summary)")
	pathPrefix := fset.String("path-prefix", "", "`prefix` for file paths in SARIF, when the module is in a sub-directory of the repository")
	if err := parseFlags(fset, args); err != nil {
		return err
	}
	if fset.NArg() != 1 {
		return inputerr.Errorf("want one results directory (the -out of perfmut run), got %d arguments; see perfmut report -h", fset.NArg())
	}
	threshold, err := gate.check()
	if err != nil {
		return err
	}
	levels, err := report.ParseLevels(*levelsFlag)
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	var formats []report.Format
	if *format != "all" {
		f, err := report.LookupFormat(*format)
		if err != nil {
			return inputerr.Errorf("-format: %v", err)
		}
		formats = []report.Format{f}
	}

	rep, dir, err := runner.ReadResults(fset.Arg(0))
	if err != nil {
		return err
	}
	if err := rep.CheckLevels(levels); err != nil {
		return &inputerr.Error{Err: err}
	}
	if rep.Unfinished != "" {
		fmt.Fprintf(stderr, "perfmut report: warning: the run in %s was interrupted before %s; perfmut run -resume -out %s finishes it\n", dir, rep.Unfinished, dir)
	}
	opts := report.Options{Levels: levels, Dir: dir, PathPrefix: *pathPrefix}
	if formats == nil {
		// Rewriting the reports of a directory a run is writing would race it.
		lock, err := outdir.Lock(dir)
		if err != nil {
			return err
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
