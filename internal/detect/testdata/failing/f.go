// Package failing has a benchmark that fails on the baseline and one
// that works.
package failing

// Good is run by the working benchmark.
//
//go:noinline
func Good(x int) int { return x*31 + 7 }

// Bad is run only by the failing benchmark.
//
//go:noinline
func Bad(x int) int { return x + 1 }
