package operators

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Inline expectations, in the manner of analysistest: a line of a golden
// module's Go file that ends in
//
//	// want "pattern" `pattern` ...
//
// expects one mutant per pattern (a regular expression matching its
// description) whose mutated node starts on that line, or spans it (for a
// node over several lines, whose first line a comment would change); a
// mutant with no such comment is unexpected. The want section keeps the
// edits' exact text.

// A wantKey is a line of a module file.
type wantKey struct {
	file string // module-relative, as in the archive
	line int
}

// An expectation is one pattern of a want comment.
type expectation struct {
	re      *regexp.Regexp
	matched bool
}

const wantMarker = "// want "

// expectations parses the want comments of the archive's Go files.
func expectations(ar *txtar.Archive) (map[wantKey][]*expectation, error) {
	out := map[wantKey][]*expectation{}
	for _, f := range ar.Files {
		if !strings.HasSuffix(f.Name, ".go") || f.Name == docExampleSection {
			continue
		}
		for i, line := range strings.Split(string(f.Data), "\n") {
			_, rest, ok := strings.Cut(line, wantMarker)
			if !ok {
				continue
			}
			k := wantKey{f.Name, i + 1}
			for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
				q, err := strconv.QuotedPrefix(rest)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: want comment: %q is not a quoted pattern", f.Name, i+1, rest)
				}
				rest = rest[len(q):]
				pat, _ := strconv.Unquote(q)
				re, err := regexp.Compile(pat)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: want comment: %v", f.Name, i+1, err)
				}
				out[k] = append(out[k], &expectation{re: re})
			}
		}
	}
	return out, nil
}

// checkExpectations checks the results against the want comments of the
// golden file's module.
func checkExpectations(t *testing.T, ar *txtar.Archive, rs []result) {
	t.Helper()
	want, err := expectations(ar)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		found := false
		end := r.pkg.Fset.Position(r.site.Node.End()).Line
		for line := r.pos.Line; line <= end && !found; line++ {
			for _, e := range want[wantKey{r.rel, line}] {
				if !e.matched && e.re.MatchString(r.site.Description) {
					e.matched, found = true, true
					break
				}
			}
		}
		if !found {
			t.Errorf("%s:%d: unexpected mutant %q (no want comment matches it)", r.rel, r.pos.Line, r.site.Description)
		}
	}
	for k, es := range want {
		for _, e := range es {
			if !e.matched {
				t.Errorf("%s:%d: no mutant matches want %q", k.file, k.line, e.re)
			}
		}
	}
}
