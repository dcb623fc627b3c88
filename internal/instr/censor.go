package instr

// CensorRatio is how many times the baseline's median count per
// operation a mutant's pre-count must reach for its samples to be
// censored: a mutant that executes that much more would take a sample
// several times as long under valgrind, and no baseline sample comes near
// it (their max/min is under 1.01).
const CensorRatio = 3

// preShift makes the pre-count's iteration count N/64.
const preShift = 6

// PreIters is the iteration count of a mutant's pre-count, a sample at
// 1/64 of the work of a sample at n (at least MinIters): taken before the
// mutant's first sample, it finishes whatever the mutant costs.
func PreIters(n int) int {
	return max(n>>preShift, MinIters)
}

// censors reports whether a mutant whose pre-count gave perOp
// instructions per operation is censored in every round on that count:
// perOp is at least CensorRatio times the baseline's median. A count does
// not depend on the load, so this cap is a number of instructions, not a
// wall time.
func censors(perOp, baselineMedian float64) bool {
	return baselineMedian > 0 && perOp >= CensorRatio*baselineMedian
}
