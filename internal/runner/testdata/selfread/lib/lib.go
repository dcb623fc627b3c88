// Package lib has a test that reads its own source file at run time, as
// golden tests of generated code do: only -isolate copy lets that test see
// a mutant.
package lib

// Double doubles n.
func Double(n int) int {
	r := 0
	for i := 0; i < 2; i++ {
		r += n
	}
	return r
}
