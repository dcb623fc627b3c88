package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/report"
)

func cmdReport(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fset := flag.NewFlagSet("report", flag.ContinueOnError)
	fset.SetOutput(stderr)
	minScore := fset.String("min-score", "", "exit 3 when the mutation score is below `X` (a fraction such as 0.8, or 80%)")
	levelsFlag := fset.String("levels", "", "optimization `levels` to show and gate on: opt, noopt or opt,noopt (default: all in the report)")
	format := fset.String("format", "all", "`format` to print: "+strings.Join(report.FormatNames(), ", ")+", or all (write every file into DIR and print the text summary)")
	pathPrefix := fset.String("path-prefix", "", "`prefix` for file paths in SARIF, when the module is in a sub-directory of the repository")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: perfmut report [-min-score X] [-levels opt,noopt] [-format text|md|html|sarif|mte|all] [-path-prefix dir/] DIR")
		fmt.Fprintln(stderr, "\nRe-render the reports of a results directory (the -out of perfmut run, holding report.json).")
		fmt.Fprintln(stderr, "With -format all (the default) it rewrites report.txt, report.md, report.html, report.sarif and")
		fmt.Fprintln(stderr, "mutation.json in DIR and prints the summary; with one format it prints that format to stdout.")
		fmt.Fprintln(stderr, "Exit codes: 0 ok, 1 error, 2 usage or bad input, 3 score below -min-score.")
		fset.PrintDefaults()
	}
	if err := parseFlags(fset, args); err != nil {
		return err
	}
	if fset.NArg() != 1 {
		return usageErrorf("want one results directory (the -out of perfmut run), got %d arguments; see perfmut report -h", fset.NArg())
	}
	var threshold float64
	if *minScore != "" {
		v, err := report.ParseMinScore(*minScore)
		if err != nil {
			return usageError(err)
		}
		threshold = v
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

	dir, file := fset.Arg(0), filepath.Join(fset.Arg(0), "report.json")
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir, file = filepath.Dir(dir), dir // the report.json itself
	}
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(filepath.Join(dir, "journal.jsonl")); err == nil {
			return usageErrorf("%s holds an unfinished run (a journal, no report.json yet); finish it with perfmut run -resume -out %s and the same flags", fset.Arg(0), fset.Arg(0))
		}
		return usageErrorf("%s: no report.json there; give the -out directory of a perfmut run", fset.Arg(0))
	}
	rep, err := report.ReadFile(file)
	if err != nil {
		return err
	}
	for _, l := range levels {
		if !slices.Contains(rep.Levels(), l) {
			return usageErrorf("-levels: the report has no results at level %s (it has %s)", l, strings.Join(rep.Levels(), ", "))
		}
	}
	opts := report.Options{Levels: levels, Dir: dir, PathPrefix: *pathPrefix}
	if formats == nil {
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
	if *minScore != "" {
		if err := report.Gate(rep, threshold, levels); err != nil {
			if report.IsBelow(err) {
				return &exitErr{exitThreshold, err}
			}
			return usageError(err)
		}
	}
	return nil
}
