// Package sum adds numbers. Its benchmark fails from its third coverage
// run on, as one that fails now and then does: the runs before say what
// it runs.
package sum

// Sum is the sum of xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
