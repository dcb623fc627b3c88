// Package app uses calc.
package app

import "example.com/hot/calc"

// Total sums xs twice over.
func Total(xs []int) int {
	return 2 * calc.Sum(xs)
}
