package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/runner"
)

func cmdShow(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var lf loadFlags
	lf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: perfmut show [-C dir] [-config file] [-operators a,b] [-tags t] ID...")
		fmt.Fprintln(stderr, "\nPrint each mutant's unified diff. An ID may be abbreviated to a unique prefix.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErrorf("no mutant IDs given; run 'perfmut list' to see them")
	}
	for _, id := range fs.Args() {
		if strings.Trim(id, "0123456789abcdef") != "" || len(id) < 4 {
			return usageErrorf("%q is not a mutant ID (IDs are 12 hex digits, as printed by 'perfmut list'; a unique prefix of at least 4 works)", id)
		}
	}
	ld, err := lf.load(ctx, nil)
	if err != nil {
		return err
	}
	prog, mutants := ld.Program, ld.Mutants
	ids := make([]string, len(mutants))
	for i, m := range mutants {
		ids[i] = m.ID
	}
	sorted := append([]string(nil), ids...)
	sort.Strings(sorted)
	byID := make(map[string]mutate.Mutant, len(mutants))
	for _, m := range mutants {
		byID[m.ID] = m
	}
	var show []mutate.Mutant
	for _, id := range fs.Args() {
		full, err := runner.ResolveID(sorted, id)
		if err != nil {
			return usageError(err)
		}
		show = append(show, byID[full])
	}
	for i, m := range show {
		diff, err := prog.Diff(m)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "# %s %s %s:%d:%d %s: %s\n", m.ID, m.Operator, m.File, m.Line, m.Column, m.Function, m.Description)
		io.WriteString(stdout, diff)
	}
	return nil
}
