// Package lib has a test that fails on the unmutated code.
package lib

// Double doubles n.
func Double(n int) int {
	r := 0
	for i := 0; i < 2; i++ {
		r += n
	}
	return r
}
