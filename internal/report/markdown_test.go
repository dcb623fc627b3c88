package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestMarkdownGitHubLimit renders a campaign with thousands of findings:
// the comment must stay within GitHub's limit, keep the score table, and
// its note must count exactly the findings left out.
func TestMarkdownGitHubLimit(t *testing.T) {
	rep := fixture(t)
	var big []results.Mutant
	for i := 0; i < 400; i++ {
		for _, m := range rep.Mutants {
			m.ID = fmt.Sprintf("%s-%d", m.ID, i)
			big = append(big, m)
		}
	}
	rep.Mutants = big
	rep.Score = nil // recomputed from the statuses
	covered, uncovered := findings(rep, rep.Levels())
	total := len(covered) + len(undecidedFindings(rep, rep.Levels()))
	for _, g := range uncovered {
		total += len(g)
	}

	var buf bytes.Buffer
	if err := writeMarkdown(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if buf.Len() > gitHubCommentLimit {
		t.Fatalf("comment is %d bytes, over GitHub's %d", buf.Len(), gitHubCommentLimit)
	}
	if buf.Len() < gitHubCommentLimit-5000 {
		t.Errorf("comment is %d bytes: truncated far below the limit", buf.Len())
	}
	if !strings.HasPrefix(out, markdownMarker) || !strings.Contains(out, "| opt | 2000 | 4400 | **45.5%** |") {
		t.Errorf("comment lost its header or score table:\n%.600s", out)
	}
	m := regexp.MustCompile(`(\d+) of (\d+) findings are not shown`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no truncation note at the end:\n%s", out[len(out)-400:])
	}
	hidden, _ := strconv.Atoi(m[1])
	if m[2] != strconv.Itoa(total) {
		t.Errorf("note says %s findings in all, want %d", m[2], total)
	}
	shown := strings.Count(out, "<details><summary>diff and samples")
	shown += strings.Count(out, "\n  - `")        // no-coverage items
	shown += strings.Count(out, "\n  - check: `") // undecided items
	if shown+hidden != total {
		t.Errorf("shown %d + hidden %d != %d findings", shown, hidden, total)
	}
	if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
		t.Errorf("a collapsible block was cut in half")
	}
}

func TestMarkdownAllKilled(t *testing.T) {
	rep := &results.Report{Schema: results.Schema, Module: "example.com/m", Mutants: []results.Mutant{{Results: map[string]*results.LevelResult{results.Opt: {Status: score.Killed}}}}}
	rep.Mutants[0].ID = "x"
	var buf bytes.Buffer
	if err := writeMarkdown(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Every valid mutant was killed.") || !strings.Contains(buf.String(), "| opt | 1 | 1 | **100.0%** | 100.0% |") {
		t.Errorf("got:\n%s", buf.String())
	}
}

func TestCodeSpanAndFence(t *testing.T) {
	for _, tc := range []struct{ in, span string }{
		{"a", "`a`"},
		{"a`b", "``a`b``"},
		{"`a", "`` `a ``"},
	} {
		if got := codeSpan(tc.in); got != tc.span {
			t.Errorf("codeSpan(%q) = %q, want %q", tc.in, got, tc.span)
		}
	}
	if got := codeFence("x ```` y"); got != "`````" {
		t.Errorf("codeFence = %q", got)
	}
}

// FuzzMarkdownLimit: whatever the limit, a comment that can fit (the
// header and the note always come) stays within it, keeps every
// collapsible block whole and counts what it leaves out.
func FuzzMarkdownLimit(f *testing.F) {
	for _, n := range []int{1, 1500, 2500, 3000, 3600, 65536} {
		f.Add(n, "spin `100` | <b>")
	}
	rep := fixture(f)
	f.Fuzz(func(t *testing.T, limit int, desc string) {
		if limit < 1 || limit > 1<<20 {
			t.Skip()
		}
		r := *rep
		r.Mutants = append([]results.Mutant(nil), rep.Mutants...)
		r.Mutants[0].Description = desc
		var min, buf bytes.Buffer
		if err := writeMarkdown(&min, &r, Options{MaxBytes: 1}); err != nil {
			t.Fatal(err)
		}
		if err := writeMarkdown(&buf, &r, Options{MaxBytes: limit}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if limit >= min.Len() && len(out) > limit {
			t.Errorf("limit %d: wrote %d bytes", limit, len(out))
		}
		if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
			t.Errorf("limit %d: a collapsible block was cut", limit)
		}
		if strings.Contains(out, "findings are not shown") == (len(out) == len(func() string {
			var all bytes.Buffer
			writeMarkdown(&all, &r, Options{MaxBytes: 1 << 30})
			return all.String()
		}())) {
			t.Errorf("limit %d: truncation note present iff something was left out", limit)
		}
	})
}

func TestEmptyReportRenders(t *testing.T) {
	rep := &results.Report{Schema: results.Schema}
	rep.Mutants = []results.Mutant{{Results: map[string]*results.LevelResult{}}}
	rep.Mutants[0].ID = "x"
	for _, f := range Formats() {
		var buf bytes.Buffer
		if err := f.Render(&buf, rep, Options{}); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}
