package report

import (
	"math"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/perfmut/perfmut/results"
)

// formatValue shows a benchmark value in its unit's scale, as benchstat
// does (1.21ms, 4.5KiB, 12).
func formatValue(v float64, unit string) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case unit == "sec/op":
		return benchunit.Scale(v, benchunit.Decimal) + "s"
	case unit == "B/op":
		return benchunit.Scale(v, benchunit.Binary) + "B"
	}
	return benchunit.Scale(v, benchunit.Decimal)
}

// interval shows [lo, hi].
func interval(m results.CompareMetric) string {
	return "[" + results.FormatRatio(m.RatioLo) + ", " + results.FormatRatio(m.RatioHi) + "]"
}

func sideLabel(s results.CompareSide) string {
	c := s.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	switch {
	case s.Rev == "WORKTREE":
		return "the working tree (HEAD " + c + ")"
	case strings.HasPrefix(s.Commit, s.Rev):
		return c
	}
	return s.Rev + " (" + c + ")"
}
