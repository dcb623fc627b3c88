// Package lib has a test that fails now and then, whatever the code.
package lib

// Triple returns 3n by addition.
func Triple(n int) int {
	r := 0
	for i := 0; i < 3; i++ {
		r += n
	}
	return r
}
