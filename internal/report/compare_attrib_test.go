package report

import (
	"bytes"
	"testing"
)

// TestCompareAttribGolden: a real comparison of the demo with a spin loop
// added to cache.(*LRU).Get (testdata/compare-attrib.json) shows, in the
// text and in the Markdown comment, the summary line naming Get and its
// changed lines, the functions' table and the pprof command.
func TestCompareAttribGolden(t *testing.T) {
	c := compareFixtureNamed(t, "compare-attrib.json")
	var buf bytes.Buffer
	if err := compareText(&buf, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare-attrib.txt", buf.Bytes())
	golden(t, "compare-attrib.md", []byte(compareMarkdown(c)))
}
