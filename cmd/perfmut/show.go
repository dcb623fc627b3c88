package main

import (
	"context"
	"io"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/internal/report"
)

func cmdShow(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("show", stderr, "Usage: perfmut show [-C dir] [-config file] [-operators a,b] [-tags t] ID...\n\nPrint each mutant's unified diff. An ID may be abbreviated to a unique prefix.\n")
	var lf loadFlags
	lf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return inputerr.Errorf("no mutant IDs given; run 'perfmut list' to see them")
	}
	for _, id := range fs.Args() {
		if _, err := load.CheckID(id); err != nil {
			return err
		}
	}
	ld, err := lf.Load(ctx, nil)
	if err != nil {
		return err
	}
	prog, mutants := ld.Program, ld.Mutants
	show, err := load.FindMutants(mutants, fs.Args())
	if err != nil {
		return &inputerr.Error{Err: err}
	}
	return report.WriteDiffs(stdout, show, prog.Diff)
}
