// Package lib has one good benchmark, one that panics and one that never
// returns.
package lib

// Double returns 2n by addition.
func Double(n int) int {
	r := 0
	for i := 0; i < 2; i++ {
		r += n
	}
	return r
}
