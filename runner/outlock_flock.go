//go:build unix && !solaris && !aix

package runner

import (
	"errors"
	"io/fs"
	"os"

	"github.com/perfmut/perfmut/internal/flock"
)

// acquireLock takes the lock file at path with flock(2): the system
// releases it when its process ends, however it ends. held says another
// open file holds it. Where the file system has no flock (some network
// file systems), the pid lock is used instead: the file is created
// exclusively first, so that one this process created is its pid lock
// there too, and one that exists is judged by pidLock.
func acquireLock(path string) (f *os.File, held bool, err error) {
	for {
		created := true
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			created = false
			f, err = os.OpenFile(path, os.O_RDWR, 0)
			if errors.Is(err, fs.ErrNotExist) {
				continue // its holder removed it in between
			}
		}
		if err != nil {
			return nil, false, err
		}
		ok, err := flock.TryLock(f)
		switch {
		case err != nil && created:
			return f, false, nil
		case err != nil:
			f.Close()
			return pidLock(path)
		case !ok:
			f.Close()
			return nil, true, nil
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
// it opens it read-only and creates nothing.
func lockHeld(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	ok, err := flock.TryLock(f)
	if err != nil {
		return pidHeld(path)
	}
	return !ok
}
