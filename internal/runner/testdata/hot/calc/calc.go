// Package calc is a small package with known performance-mutation outcomes:
// Sum runs in benchmark loops, Unused in no benchmark, Prepare only in
// benchmark setup, and Find has a loop whose break the tests depend on.
package calc

// Sum adds xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// Find returns the index of the first element >= t, or -1.
func Find(xs []int, t int) int {
	idx := -1
	for i, x := range xs {
		if x >= t {
			idx = i
			break
		}
	}
	return idx
}

// Prepare returns the numbers 0..n-1.
func Prepare(n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	return xs
}

// Unused is tested but no benchmark calls it.
func Unused(n int) int {
	p := 1
	for i := 0; i < n; i++ {
		p *= 3
	}
	return p
}

// Orphan is called by no test and no benchmark.
func Orphan(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}
