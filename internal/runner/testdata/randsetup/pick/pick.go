// Package pick finds keys in a slice. Its benchmarks look for keys whose
// positions are random per process, as a benchmark with a random set-up
// does: how often Index's loop body runs differs from one process to the
// next.
package pick

// Index is the position of x in xs, or -1.
func Index(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}
