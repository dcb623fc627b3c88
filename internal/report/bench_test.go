package report

import (
	"fmt"
	"io"
	"testing"

	"github.com/perfmut/perfmut/results"
)

// bigReport repeats the fixture's mutants n times (distinct IDs).
func bigReport(b testing.TB, n int) *results.Report {
	rep := fixture(b)
	var ms []results.Mutant
	for i := 0; i < n; i++ {
		for _, m := range rep.Mutants {
			m.ID = fmt.Sprintf("%s-%d", m.ID, i)
			ms = append(ms, m)
		}
	}
	rep.Mutants = ms
	rep.Score = nil
	return rep
}

// Rendering a 14,000-mutant campaign: go test ./internal/report -run '^$' -bench .
func BenchmarkRender(b *testing.B) {
	rep := bigReport(b, 1000)
	for _, f := range Formats() {
		b.Run(f.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := f.Render(io.Discard, rep, Options{Dir: "perfmut-out"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
