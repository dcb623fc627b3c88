package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixture reads testdata/report.json, a hand-made report with every
// status, both levels, several operators and raw samples, with its
// mutants' operators as perfmut's reader gives them.
func fixture(t testing.TB) *results.Report {
	t.Helper()
	rep, err := results.ReadFile(filepath.Join("testdata", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep.SetOperators(operators.All)
	return rep
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the rendering; diff with go test ./internal/report -run %s -update && git diff\n--- got:\n%s", name, t.Name(), got)
	}
}

func TestTextGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"report.txt", Options{Dir: "perfmut-out"}},
		{"report-opt.txt", Options{Levels: []string{results.Opt}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Text(&buf, fixture(t), tc.opts); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, buf.Bytes())
		})
	}
}

func TestMarkdownGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"report.md", Options{Dir: "perfmut-out"}},
		// Small enough to leave findings out: the note must say how many.
		{"report-truncated.md", Options{MaxBytes: 2500}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := writeMarkdown(&buf, fixture(t), tc.opts); err != nil {
				t.Fatal(err)
			}
			if max := tc.opts.MaxBytes; max > 0 && buf.Len() > max {
				t.Errorf("Markdown wrote %d bytes, limit %d", buf.Len(), max)
			}
			golden(t, tc.name, buf.Bytes())
		})
	}
}
