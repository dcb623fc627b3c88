//go:build unix && !solaris && !aix

package runner

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// acquireLock takes the lock file at path with flock(2): the system
// releases it when its process ends, however it ends. held says another
// open file holds it. Where the file system has no flock (some network
// file systems), the pid lock is used instead.
func acquireLock(path string) (f *os.File, held bool, err error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, false, err
		}
		if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, true, nil
			}
			// The empty file just created is not a pid lock being
			// written.
			if fi, err := os.Stat(path); err == nil && fi.Size() == 0 {
				os.Remove(path)
			}
			return pidLock(path)
		}
		// The holder before may have removed the file between our open
		// and flock: the lock is the file at path.
		if sameFile(f, path) {
			return f, false, nil
		}
		f.Close()
	}
}

// lockHeld reports whether another open file holds the lock file at path;
// it creates nothing.
func lockHeld(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return true
		}
		return pidHeld(path)
	}
	return false
}

// flock calls flock(2) on f, again when interrupted by a signal.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// sameFile reports whether the open file f is the file at path.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return err == nil && os.SameFile(a, b)
}
