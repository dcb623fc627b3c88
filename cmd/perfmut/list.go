package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

func cmdList(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var lf loadFlags
	lf.register(fs)
	lf.registerMutants(fs)
	fs.StringVar(&lf.ChangedSince, "changed-since", "", "list only the mutants on lines added or changed since git `rev` (a pull request's scope, as perfmut run -changed-since)")
	asJSON := fs.Bool("json", false, "print a JSON array of mutants")
	check := fs.Bool("check", false, "type-check every mutant in-process and report the ones that fail")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: perfmut list [-C dir] [-config file] [-operators a,b] [-tags t] [-mutants IDs] [-changed-since rev] [-json] [-check] [packages]")
		fmt.Fprintln(stderr, "\nList every mutant that would be generated (default packages: ./...).")
		fs.PrintDefaults()
		fmt.Fprint(stderr, "\nOperators (go doc github.com/perfmut/perfmut/operators shows each one's example):\n"+operators.Catalogue(operators.All))
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ld, err := lf.load(ctx, fs.Args())
	if err != nil {
		return err
	}
	prog, mutants := ld.Program, ld.Mutants
	for _, w := range prog.Warnings {
		fmt.Fprintf(stderr, "perfmut list: warning: %s\n", w)
	}
	if *asJSON {
		if mutants == nil {
			mutants = []mutate.Mutant{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(mutants); err != nil {
			return err
		}
	} else {
		writeTable(stdout, prog, mutants)
	}
	if *check {
		return checkAll(ctx, stderr, prog, mutants)
	}
	return nil
}

// writeTable prints the mutants as a table and a count per operator.
func writeTable(w io.Writer, prog *mutate.Program, mutants []mutate.Mutant) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	if len(mutants) > 0 {
		fmt.Fprintln(tw, "ID\tOPERATOR\tPOSITION\tFUNCTION\tDESCRIPTION")
	}
	for _, m := range mutants {
		fmt.Fprintf(tw, "%s\t%s\t%s:%d\t%s\t%s\n", m.ID, m.Operator, m.File, m.Line, m.Function, m.Description)
	}
	tw.Flush()

	type count struct {
		name string
		q    mutate.Quadrant
		n    int
	}
	byOp := map[string]*count{}
	for _, m := range mutants {
		c := byOp[m.Operator]
		if c == nil {
			c = &count{name: m.Operator, q: m.Quadrant}
			byOp[m.Operator] = c
		}
		c.n++
	}
	counts := make([]*count, 0, len(byOp))
	for _, c := range byOp {
		counts = append(counts, c)
	}
	sort.Slice(counts, func(i, j int) bool {
		if counts[i].q != counts[j].q {
			return counts[i].q < counts[j].q
		}
		return counts[i].name < counts[j].name
	})
	if len(mutants) > 0 {
		fmt.Fprintln(w)
	}
	withMutants := map[string]bool{}
	for _, m := range mutants {
		withMutants[m.Package] = true
	}
	fmt.Fprintf(w, "%d %s in %d %s of %s", len(mutants), english.Word(len(mutants), "mutant"), len(withMutants), english.Word(len(withMutants), "package"), prog.Module.Path)
	if len(prog.Packages) != len(withMutants) {
		fmt.Fprintf(w, " (%d %s loaded)", len(prog.Packages), english.Word(len(prog.Packages), "package"))
	}
	fmt.Fprintln(w)
	nameW, countW := 0, 0
	for _, c := range counts {
		nameW = max(nameW, len(c.name))
		countW = max(countW, len(fmt.Sprint(c.n)))
	}
	for _, c := range counts {
		fmt.Fprintf(w, "  %s  %-*s  %*d\n", c.q, nameW, c.name, countW, c.n)
	}
}

// checkAll type-checks every mutant (in parallel, see
// mutate.Program.CheckAll) and reports the failures.
func checkAll(ctx context.Context, stderr io.Writer, prog *mutate.Program, mutants []mutate.Mutant) error {
	errs := prog.CheckAll(ctx, mutants)
	if err := ctx.Err(); err != nil {
		return err
	}
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			m := mutants[i]
			fmt.Fprintf(stderr, "FAIL %s %s %s:%d: %s\n", m.ID, m.Operator, m.File, m.Line, strings.TrimPrefix(err.Error(), "mutant "+m.ID+" "))
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d mutants do not type-check", failed, len(mutants))
	}
	fmt.Fprintf(stderr, "all %d mutants type-check\n", len(mutants))
	return nil
}
