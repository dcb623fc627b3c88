// Package app finds things with lib.
package app

import "example.com/inlined/lib"

// HasZero reports whether xs holds a 0.
func HasZero(xs []int) bool { return lib.Index(xs, 0) >= 0 }
