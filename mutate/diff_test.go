package mutate

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	for _, tc := range []struct{ name, old, new, want string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"change", "a\nb\nc\n", "a\nB\nc\n", "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"new file", "", "x\ny\n", "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"delete all", "x\n", "", "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n"},
		{"no newline", "a\nb", "a\nc", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n",
			"--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n"},
		{"merged hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\nX\n3\n4\n5\n6\n7\nY\n9\n",
			"--- a\n+++ b\n@@ -1,9 +1,9 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n 9\n"},
		{"insert", "a\nb\n", "a\nnew\nb\n", "--- a\n+++ b\n@@ -1,2 +1,3 @@\n a\n+new\n b\n"},
	} {
		if got := UnifiedDiff("a", "b", tc.old, tc.new); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// applyUnified applies a unified diff produced by UnifiedDiff to old.
func applyUnified(old, diff string) (string, error) {
	if diff == "" {
		return old, nil
	}
	a := splitLines(old)
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	next := 0 // index into a
	i := 2    // skip --- and +++
	for i < len(lines) && lines[i] != "" {
		h := lines[i]
		if !strings.HasPrefix(h, "@@ -") {
			return "", fmt.Errorf("line %d: want a hunk header, got %q", i, h)
		}
		r := strings.Fields(h)[1][1:]
		start, _, _ := strings.Cut(r, ",")
		s, err := strconv.Atoi(start)
		if err != nil {
			return "", err
		}
		if n := strings.Split(r, ","); len(n) == 2 && n[1] == "0" {
			s++ // an empty range names the line before
		}
		for ; next < s-1; next++ {
			out = append(out, a[next])
		}
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			body := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\\ No newline") {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				if next >= len(a) || a[next] != body {
					return "", fmt.Errorf("context mismatch at old line %d", next+1)
				}
				out = append(out, body)
				next++
			case '-':
				if next >= len(a) || a[next] != body {
					return "", fmt.Errorf("deletion mismatch at old line %d", next+1)
				}
				next++
			case '+':
				out = append(out, body)
			default:
				return "", fmt.Errorf("bad line %q", l)
			}
			i++
		}
	}
	out = append(out, a[next:]...)
	return strings.Join(out, ""), nil
}

func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("", "x")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n3\n4\n5\n6\n7\n8\n9\n10\n11")
	f.Fuzz(func(t *testing.T, old, new string) {
		d := UnifiedDiff("a", "b", old, new)
		if (d == "") != (old == new) {
			t.Fatalf("diff empty = %v for old == new = %v", d == "", old == new)
		}
		got, err := applyUnified(old, d)
		if err != nil {
			t.Fatalf("applying %q to %q: %v", d, old, err)
		}
		if got != new {
			t.Fatalf("applying %q to %q gives %q, want %q", d, old, got, new)
		}
	})
}
