package report

import (
	"strings"
	"testing"
)

// The comment names the test the comparison ran (-test mwu is a flag of
// compare too) and gives each metric's p-value, as the text does.
func TestCompareMarkdownTestAndP(t *testing.T) {
	c := compareFixture(t)
	c.Settings.Test = "mwu"
	md := CompareMarkdown(c)
	if !strings.Contains(md, "one-sided Mann-Whitney U tests in both directions") || strings.Contains(md, "KS tests") {
		t.Errorf("-test mwu: the comment does not name the Mann-Whitney U test:\n%s", md)
	}
	if want := "| BenchmarkSum | sec/op | 6.637µs | 15.15µs | 2.28 | [1.74, 3.86] | 0.00011 | 🔴 slower |"; !strings.Contains(md, want) {
		t.Errorf("no row %q (with p) in\n%s", want, md)
	}
}
