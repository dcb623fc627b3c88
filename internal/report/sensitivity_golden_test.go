package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
)

// TestSensitivityTableGolden: the "Sensitivity per loop site" table of the
// HTML and Markdown reports, with a site whose smallest injected cost was
// killed (the prediction from the benchmarks' noise says how much smaller
// they would notice), one bracketed by a survivor, and one nothing
// noticed.
func TestSensitivityTableGolden(t *testing.T) {
	rep := fixture(t)
	rep.Sensitivity = []results.Sensitivity{
		{File: "cache/lru.go", Line: 56, Column: 3, Function: "(*LRU).Put", Level: "opt", DetectedNanos: 7000, PredictedNanos: 2.1, PredictedBy: "BenchmarkPut",
			Text: "benchmarks notice +7µs per iteration here, the smallest cost injected; BenchmarkPut's noise says it would notice about +2.1ns"},
		{File: "text/text.go", Line: 21, Column: 2, Function: "Lower", Level: "opt", DetectedNanos: 70000, MissedNanos: 7000,
			Text: "benchmarks notice +70µs per iteration here, not +7µs"},
		{File: "text/text.go", Line: 75, Column: 2, Function: "Words", Level: "opt", MissedNanos: 1e6,
			Text: "benchmarks notice nothing up to +1ms per iteration here"},
	}
	var html, md bytes.Buffer
	if err := writeHTML(&html, rep, Options{Dir: "perfmut-out"}); err != nil {
		t.Fatal(err)
	}
	if err := writeMarkdown(&md, rep, Options{Dir: "perfmut-out"}); err != nil {
		t.Fatal(err)
	}
	got := section(t, html.String(), "<h2>Sensitivity per loop site</h2>", "</table>") + "\n" +
		section(t, md.String(), "#### Sensitivity per loop site", "| `text/text.go:75:2` | `Words` | opt | benchmarks notice nothing up to +1ms per iteration here |")
	golden(t, "sensitivity-table.golden", []byte(got))
}

// section is the part of s from start to the first end after it, end
// included.
func section(t *testing.T, s, start, end string) string {
	t.Helper()
	i := strings.Index(s, start)
	if i < 0 {
		t.Fatalf("no %q in the report", start)
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		t.Fatalf("no %q after %q", end, start)
	}
	return s[i:i+j+len(end)] + "\n"
}
