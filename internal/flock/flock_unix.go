//go:build unix && !solaris && !aix

package flock

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// TryLock takes f's exclusive lock without waiting: false if another open
// file holds it. f need not be open for writing.
func TryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.EINVAL):
			return false, fmt.Errorf("%s: %w (%v)", f.Name(), ErrUnsupported, err)
		}
		return false, fmt.Errorf("%s: flock: %w", f.Name(), err)
	}
}

// Unlock releases f's lock (closing f releases it too).
func Unlock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
