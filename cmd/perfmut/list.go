package main

import (
	"context"
	"fmt"
	"io"

	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/operators"
)

const listUsage = "Usage: perfmut list [-C dir] [-config file] [-operators a,b] [-tags t] [-mutants IDs] [-changed-since rev] [-json] [-check] [packages]\n\nList every mutant that would be generated (default packages: ./...).\n"

func cmdList(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("list", stderr, listUsage)
	fs.Usage = func() { // the flags, then the operators
		printUsage(fs, stderr, listUsage)
		fmt.Fprint(stderr, "\nOperators (go doc github.com/perfmut/perfmut/operators shows each one's example):\n"+operators.Catalogue(operators.All))
	}
	var lf loadFlags
	lf.register(fs)
	lf.registerMutants(fs)
	registerChangedSince(fs, &lf.ChangedSince, "list only the mutants on lines", "")
	asJSON := fs.Bool("json", false, "print a JSON array of mutants")
	check := fs.Bool("check", false, "type-check every mutant in-process and report the ones that fail")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ld, err := lf.Load(ctx, fs.Args())
	if err != nil {
		return err
	}
	prog, mutants := ld.Program, ld.Mutants
	for _, w := range prog.Warnings {
		fmt.Fprintf(stderr, "perfmut list: warning: %s\n", w)
	}
	if *asJSON {
		err = report.WriteMutantsJSON(stdout, mutants)
	} else {
		report.WriteMutantList(stdout, prog.Module.Path, len(prog.Packages), mutants)
	}
	if err != nil || !*check {
		return err
	}
	return load.CheckMutants(ctx, stderr, prog, mutants)
}
