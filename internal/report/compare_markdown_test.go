package report

import (
	"strings"
	"testing"
)

// The comment names the test the comparison ran: the paired signed-rank
// test of the per-round ratios, whatever -test (the kill rule's two-sample
// test) says; and it gives each metric's p-value, as the text does.
func TestCompareMarkdownTestAndP(t *testing.T) {
	c := compareFixture(t)
	c.Settings.Test = "mwu"
	md := compareMarkdown(c)
	if !strings.Contains(md, "one-sided Wilcoxon signed-rank tests of the per-round ratios NEW/OLD in both directions") || strings.Contains(md, "KS tests") || strings.Contains(md, "Mann-Whitney") {
		t.Errorf("the comment does not name the paired signed-rank test:\n%s", md)
	}
	if want := "| BenchmarkSum | sec/op | 6.637µs | 15.15µs | 2.28 | [1.74, 3.86] | 0.00011 | 🔴 slower |"; !strings.Contains(md, want) {
		t.Errorf("no row %q (with p) in\n%s", want, md)
	}
}
