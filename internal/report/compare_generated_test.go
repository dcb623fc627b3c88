package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
)

// TestCompareGenerated: compare -generate's section in the text and the
// Markdown comment: each generated benchmark with what it calls, which
// calls changed and its file; each type without one with the reason.
func TestCompareGenerated(t *testing.T) {
	c := &results.Comparison{
		Old: results.CompareSide{Rev: "HEAD~1", Commit: "a"}, New: results.CompareSide{Rev: "HEAD", Commit: "b"},
		Selection: results.Selection{Reason: "no benchmark to compare; generated for the changed thread-safe types (-generate): 1 (BenchmarkConcurrentStore)"},
		Generated: &results.GeneratedSection{
			Benchmarks: []results.GeneratedBenchmark{{Package: "example.com/m/kv", Name: "BenchmarkConcurrentStore", Type: "*Store",
				Covers: []string{"New", "(*Store).Get", "(*Store).Set"}, Focus: []string{"(*Store).Get"}, File: "generated/kv/perfmut_gen_test.go", Calls: 4}},
			Skipped: []results.GeneratedSkip{{Package: "example.com/m/kv", Type: "(*Store).Watch", Reason: "no value pool for a parameter of type chan int"}},
			Dropped: 2, Builds: 1,
		},
	}
	var b bytes.Buffer
	if err := compareText(&b, c); err != nil {
		t.Fatal(err)
	}
	want := `
generated (-generate): 1 concurrent benchmark of the changed thread-safe types, measured above (2 candidate sequences dropped by feedback, 1 build)
  BenchmarkConcurrentStore of *Store: calls New, (*Store).Get, (*Store).Set; changed: (*Store).Get; keep it: copy generated/kv/perfmut_gen_test.go into example.com/m/kv
  not generated: example.com/m/kv (*Store).Watch: no value pool for a parameter of type chan int
`
	if !strings.Contains(b.String(), want) {
		t.Errorf("text:\n%s\nwant the section\n%s", b.String(), want)
	}
	md := compareMarkdown(c)
	wantMD := "| BenchmarkConcurrentStore | `*Store` | New, (\\*Store).Get, (\\*Store).Set; changed: (\\*Store).Get | `generated/kv/perfmut_gen_test.go` |\n" +
		"\n- not generated: `example.com/m/kv (*Store).Watch`: no value pool for a parameter of type chan int\n"
	if !strings.Contains(md, "#### Generated concurrent benchmarks\n\n1 benchmark of the changed thread-safe types") || !strings.Contains(md, wantMD) {
		t.Errorf("Markdown:\n%s\nwant rows\n%s", md, wantMD)
	}
}
