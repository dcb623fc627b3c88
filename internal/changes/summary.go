package changes

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
)

// Summary writes which files and lines were in scope since rev and how
// many of the generated mutants lie on them, e.g.
//
//	changed since origin/main: 2 Go files, 14 lines, 5 of 212 mutants in scope
//	  textutil/lower.go  lines 12-15, 40  (4 mutants)
//	  textutil/split.go  line 9  (1 mutant)
//	  (3 other changed files: README.md, lower_test.go, go.sum)
//
// Only non-test Go files can hold mutants; other changed files are
// counted on the last line.
func Summary(w io.Writer, rev string, lines map[string][]Range, all, kept []mutate.Mutant) error {
	per := map[string]int{}
	for _, m := range kept {
		per[m.File]++
	}
	var goFiles, other []string
	nlines := 0
	for _, f := range slices.Sorted(maps.Keys(lines)) {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			goFiles = append(goFiles, f)
			for _, r := range lines[f] {
				nlines += r.End - r.Start + 1
			}
		} else {
			other = append(other, f)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "changed since %s: %s, %s, %d of %s in scope\n", rev,
		english.Plural(len(goFiles), "Go file"), english.Plural(nlines, "line"), len(kept), english.Plural(len(all), "mutant"))
	width := 0
	for _, f := range goFiles {
		width = max(width, len(f))
	}
	for _, f := range goFiles {
		var rs []string
		for _, r := range lines[f] {
			rs = append(rs, r.String())
		}
		word := "lines"
		if len(rs) == 1 && !strings.Contains(rs[0], "-") {
			word = "line"
		}
		fmt.Fprintf(&b, "  %-*s  %s %s  (%s)\n", width, f, word, strings.Join(rs, ", "), english.Plural(per[f], "mutant"))
	}
	if len(other) > 0 {
		shown := other
		if len(shown) > 5 {
			shown = append(slices.Clone(shown[:5]), "…")
		}
		fmt.Fprintf(&b, "  (%s: %s)\n", english.Plural(len(other), "other changed file"), strings.Join(shown, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
