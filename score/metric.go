package score

import "slices"

// The metrics perfmut always knows. Go benchmarks report ns/op; x/perf's
// benchfmt tidies it to sec/op.
const (
	SecPerOp    = "sec/op"
	NsPerOp     = "ns/op"
	BytesPerOp  = "B/op"
	AllocsPerOp = "allocs/op"
)

// HigherIsWorse reports whether a larger value of the benchmark unit means
// a slower or hungrier program, so that the statistics test it: sec/op,
// ns/op, B/op and allocs/op, and the custom units listed in extra (from
// b.ReportMetric; the configuration's metrics list).
func HigherIsWorse(unit string, extra []string) bool {
	switch unit {
	case SecPerOp, NsPerOp, BytesPerOp, AllocsPerOp:
		return true
	}
	return slices.Contains(extra, unit)
}
