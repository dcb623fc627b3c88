//go:build unix && !solaris && !aix

package outdir

import (
	"errors"
	"io/fs"
	"os"
)

// acquire takes the lock file at path with tryLock, a lock the system
// releases when the open file is closed, however its process ends. held
// says another open file holds it. Where the file system has no such lock
// (tryLock fails), the pid lock is used instead: the file is created
// exclusively first, so that one this process created is its pid lock
// there too, and one that exists is judged by pidLock.
func acquire(path string, tryLock func(*os.File) (bool, error)) (f *os.File, held bool, err error) {
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
		ok, err := tryLock(f)
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
		// and lock: the lock is the file at path.
		if sameFile(f, path) {
			return f, false, nil
		}
		f.Close()
	}
}
