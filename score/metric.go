package score

import "slices"

// The metrics perfmut always knows. Go benchmarks report ns/op; x/perf's
// benchfmt tidies it to sec/op.
const (
	SecPerOp    = "sec/op"
	NsPerOp     = "ns/op"
	BytesPerOp  = "B/op"
	AllocsPerOp = "allocs/op"
	// InstructionsPerOp is the metric of -measure instructions: the
	// instructions a benchmark's loop executes per operation, counted under
	// valgrind. Lower is better; it is not a count in IsCount's sense (its
	// values vary a little, with the runtime's work and each process's
	// hash seeds), so the rule treats it as a time: the minimum effect and
	// the margin apply (docs/statistics.md, "Instruction counts").
	InstructionsPerOp = "instructions/op"
)

// HigherIsWorse reports whether a larger value of the benchmark unit means
// a slower or hungrier program, so that the statistics test it: sec/op,
// ns/op, instructions/op, B/op and allocs/op, and the custom units listed
// in extra (from b.ReportMetric; the configuration's metrics list).
func HigherIsWorse(unit string, extra []string) bool {
	switch unit {
	case SecPerOp, NsPerOp, InstructionsPerOp, BytesPerOp, AllocsPerOp:
		return true
	}
	return slices.Contains(extra, unit)
}

// IsCount reports whether the unit counts something per operation (B/op,
// allocs/op) rather than timing it: such values do not vary with machine
// noise, so a count that is constant on both sides and larger on the
// mutant's is a real increase, and no minimum effect applies to it.
func IsCount(unit string) bool { return unit == BytesPerOp || unit == AllocsPerOp }
