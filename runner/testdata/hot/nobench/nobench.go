// Package nobench has no test files.
package nobench

// Twice doubles n.
func Twice(n int) int { return 2 * n }
