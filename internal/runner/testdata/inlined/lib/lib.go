// Package lib has a small function that the compiler inlines into its
// importers; it has no tests of its own.
package lib

// Index returns the index of the first x in xs, or -1.
func Index(xs []int, x int) int {
	idx := -1
	for i, v := range xs {
		if v == x {
			idx = i
			break
		}
	}
	return idx
}
