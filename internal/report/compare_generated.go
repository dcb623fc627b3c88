package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
)

// writeGeneratedText writes compare -generate's section: the generated
// concurrent benchmarks (their verdicts are in the table), their files,
// and the changed thread-safe types without one.
func writeGeneratedText(w io.Writer, g *results.GeneratedSection) {
	fmt.Fprintf(w, "\ngenerated (-generate): %s of the changed thread-safe types, measured above (%s dropped by feedback, %s)\n",
		english.Plural(len(g.Benchmarks), "concurrent benchmark"), english.Plural(g.Dropped, "candidate sequence"), english.Plural(g.Builds, "build"))
	for _, bm := range g.Benchmarks {
		fmt.Fprintf(w, "  %s of %s: calls %s%s; keep it: copy %s into %s\n", bm.Name, bm.Type, strings.Join(bm.Covers, ", "), changedList(bm.Focus), bm.File, bm.Package)
	}
	for _, s := range g.Skipped {
		fmt.Fprintf(w, "  not generated: %s: %s\n", skippedName(s), s.Reason)
	}
}

// writeGeneratedMarkdown writes the section for the pull-request comment.
func writeGeneratedMarkdown(b *strings.Builder, g *results.GeneratedSection) {
	fmt.Fprintf(b, "\n#### Generated concurrent benchmarks\n\n%s of the changed thread-safe types (their verdicts are in the tables above); %s dropped by feedback.\n",
		english.Plural(len(g.Benchmarks), "benchmark"), english.Plural(g.Dropped, "candidate sequence"))
	if len(g.Benchmarks) > 0 {
		b.WriteString("\n| Benchmark | Type | Calls | File |\n|---|---|---|---|\n")
		for _, bm := range g.Benchmarks {
			fmt.Fprintf(b, "| %s | `%s` | %s%s | `%s` |\n", mdEscape(bm.Name), bm.Type, mdEscape(strings.Join(bm.Covers, ", ")), mdEscape(changedList(bm.Focus)), bm.File)
		}
	}
	for _, s := range g.Skipped {
		fmt.Fprintf(b, "\n- not generated: `%s`: %s", skippedName(s), mdEscape(s.Reason))
	}
	if len(g.Skipped) > 0 {
		b.WriteString("\n")
	}
}

func changedList(focus []string) string {
	if len(focus) == 0 {
		return ""
	}
	return "; changed: " + strings.Join(focus, ", ")
}

func skippedName(s results.GeneratedSkip) string {
	if s.Type == "" {
		return s.Package
	}
	return s.Package + " " + s.Type
}
