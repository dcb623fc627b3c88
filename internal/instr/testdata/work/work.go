// Package work is a benchmark whose work per operation is known: Mix runs
// its loop n times, so Mix(2n) executes twice the loop's instructions.
package work

// Mix folds n rounds of an integer hash into x.
//
//go:noinline
func Mix(x uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x ^= x >> 33
		x *= 0xff51afd7ed558ccd
		x += uint64(i)
	}
	return x
}
