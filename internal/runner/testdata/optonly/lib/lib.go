// Package lib has a test that passes only with optimizations: without
// inlining, newPair's result escapes and Sum allocates.
package lib

type pair struct{ a, b int }

func newPair(a, b int) *pair { return &pair{a, b} }

// Sum adds a and b.
func Sum(a, b int) int {
	p := newPair(a, b)
	return p.a + p.b
}

// Double doubles n.
func Double(n int) int {
	r := 0
	for i := 0; i < 2; i++ {
		r += n
	}
	return r
}
