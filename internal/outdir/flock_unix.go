//go:build unix && !solaris && !aix

package outdir

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Advisory whole-file locks (flock(2)) where the system has them: the
// kernel releases such a lock when the open file that holds it is closed,
// also when its process is killed.

// tryFlock takes f's exclusive flock without waiting: false if another
// open file holds it. f need not be open for writing. Where the file system
// has no flock the error wraps errors.ErrUnsupported.
func tryFlock(f *os.File) (bool, error) {
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
			return false, fmt.Errorf("%s: %w (%v)", f.Name(), errors.ErrUnsupported, err)
		}
		return false, fmt.Errorf("%s: flock: %w", f.Name(), err)
	}
}

// unflock releases f's flock (closing f releases it too).
func unflock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
