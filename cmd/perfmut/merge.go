package main

import (
	"context"
	"fmt"
	"io"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/internal/runner"
)

func cmdMerge(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("perfmut merge", stderr, "Usage: perfmut merge -out DIR DIR...\n\nCombines the results directories of perfmut run -shard k/n into one,\nas if the campaign had run unsharded.\n")
	out := fs.String("out", "", "`dir`ectory for the merged results (required)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return inputerr.Errorf("-out is required: perfmut merge -out DIR DIR...")
	}
	if fs.NArg() == 0 {
		return inputerr.Errorf("no shard directories: perfmut merge -out DIR DIR...")
	}
	rep, err := runner.Merge(*out, fs.Args()) // bad input: an *inputerr.Error, exit 2
	if err != nil {
		return err
	}
	if err := report.WriteAll(*out, rep); err != nil {
		return fmt.Errorf("writing the reports: %w (report.json is complete; re-render with perfmut report %s)", err, *out)
	}
	report.WriteScores(stdout, rep)
	fmt.Fprintf(stdout, "results in %s\n", *out)
	return nil
}
