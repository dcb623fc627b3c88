//go:build !unix || solaris || aix

package flock

import (
	"fmt"
	"os"
)

// TryLock: this system has no flock (Windows, Solaris, AIX); the error
// wraps ErrUnsupported.
func TryLock(f *os.File) (bool, error) {
	return false, fmt.Errorf("%s: %w", f.Name(), ErrUnsupported)
}

// Unlock does nothing where there is no flock.
func Unlock(*os.File) error { return nil }
