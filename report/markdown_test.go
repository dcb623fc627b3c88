package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/score"
)

// TestMarkdownGitHubLimit renders a campaign with thousands of findings:
// the comment must stay within GitHub's limit, keep the score table, and
// its note must count exactly the findings left out.
func TestMarkdownGitHubLimit(t *testing.T) {
	rep := fixture(t)
	var big []Mutant
	for i := 0; i < 400; i++ {
		for _, m := range rep.Mutants {
			m.ID = fmt.Sprintf("%s-%d", m.ID, i)
			big = append(big, m)
		}
	}
	rep.Mutants = big
	rep.Score = nil // recomputed from the statuses
	covered, uncovered := findings(rep, rep.Levels())
	total := len(covered)
	for _, g := range uncovered {
		total += len(g)
	}

	var buf bytes.Buffer
	if err := Markdown(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if buf.Len() > GitHubCommentLimit {
		t.Fatalf("comment is %d bytes, over GitHub's %d", buf.Len(), GitHubCommentLimit)
	}
	if buf.Len() < GitHubCommentLimit-5000 {
		t.Errorf("comment is %d bytes: truncated far below the limit", buf.Len())
	}
	if !strings.HasPrefix(out, MarkdownMarker) || !strings.Contains(out, "| opt | 1600 | 4000 | **40.0%** |") {
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
	shown := strings.Count(out, "<details><summary>diff and benchstat")
	shown += strings.Count(out, "\n  - `") // no-coverage items
	if shown+hidden != total {
		t.Errorf("shown %d + hidden %d != %d findings", shown, hidden, total)
	}
	if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
		t.Errorf("a collapsible block was cut in half")
	}
}

func TestMarkdownAllKilled(t *testing.T) {
	rep := &Report{Schema: Schema, Module: "example.com/m", Mutants: []Mutant{{Results: map[string]*LevelResult{Opt: {Status: score.Killed}}}}}
	rep.Mutants[0].ID = "x"
	var buf bytes.Buffer
	if err := Markdown(&buf, rep, Options{}); err != nil {
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
