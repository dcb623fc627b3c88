package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
)

// WriteMutantList prints perfmut list's table of mutants and a count per
// operator; module is the module path and loaded the number of packages
// loaded.
func WriteMutantList(w io.Writer, module string, loaded int, mutants []mutate.Mutant) {
	tw := newAlignWriter(w, 2)
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
	withMutants := map[string]bool{}
	for _, m := range mutants {
		c := byOp[m.Operator]
		if c == nil {
			c = &count{name: m.Operator, q: m.Quadrant}
			byOp[m.Operator] = c
		}
		c.n++
		withMutants[m.Package] = true
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
	fmt.Fprintf(w, "%d %s in %d %s of %s", len(mutants), english.Word(len(mutants), "mutant"), len(withMutants), english.Word(len(withMutants), "package"), module)
	if loaded != len(withMutants) {
		fmt.Fprintf(w, " (%d %s loaded)", loaded, english.Word(loaded, "package"))
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

// WriteMutantsJSON prints the mutants as an indented JSON array (perfmut
// list -json); none is [].
func WriteMutantsJSON(w io.Writer, mutants []mutate.Mutant) error {
	if mutants == nil {
		mutants = []mutate.Mutant{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(mutants)
}

// WriteDiffs prints each mutant's heading and unified diff (perfmut show),
// a blank line between them; diff returns a mutant's diff.
func WriteDiffs(w io.Writer, mutants []mutate.Mutant, diff func(mutate.Mutant) (string, error)) error {
	for i, m := range mutants {
		d, err := diff(m)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "# %s %s %s:%d:%d %s: %s\n", m.ID, m.Operator, m.File, m.Line, m.Column, m.Function, m.Description)
		io.WriteString(w, d)
	}
	return nil
}
