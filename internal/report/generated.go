package report

import (
	"fmt"

	"github.com/perfmut/perfmut/results"
)

// generatedLine offers the fix perfmut generate found for a survivor or
// a no-coverage mutant: the generated benchmark that kills it and the
// command that writes it into the module; "" if there is none.
func generatedLine(m *results.Mutant) string {
	g := m.Generated
	if g == nil {
		return ""
	}
	return fmt.Sprintf("a generated benchmark kills it: %s in %s; add it to the module with %s", g.Benchmark, g.File, g.Command)
}

// mdGenerated is generatedLine as a Markdown list item at indent, with
// its newline; "" if there is none.
func mdGenerated(m *results.Mutant, indent string) string {
	g := m.Generated
	if g == nil {
		return ""
	}
	return fmt.Sprintf("%s- fix: a generated benchmark kills it: %s in %s; add it to the module with %s\n", indent, codeSpan(g.Benchmark), codeSpan(g.File), codeSpan(g.Command))
}
