package outdir

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// The open file description locks of fcntl(2) (Linux 3.15 and later), not
// in package syscall.
const (
	fOFDGetlk = 36 // F_OFD_GETLK
	fOFDSetlk = 37 // F_OFD_SETLK
)

// acquireLock takes the lock file at path with an open file description
// lock on the whole file (see acquire): unlike flock(2), another process
// can see it without taking it (lockHeld).
func acquireLock(path string) (f *os.File, held bool, err error) {
	return acquire(path, tryOFDLock)
}

// tryOFDLock takes a write lock on all of f (F_OFD_SETLK) if no other open
// file holds one.
func tryOFDLock(f *os.File) (bool, error) {
	lk := wholeFile(syscall.F_WRLCK)
	err := syscall.FcntlFlock(f.Fd(), fOFDSetlk, &lk)
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
		return false, nil
	}
	return err == nil, err
}

// lockHeld reports whether another open file holds the lock file at path.
// It asks the system (F_OFD_GETLK) and takes no lock: a process locking
// the directory at the same moment is never refused because of the check.
// It opens the file read-only and creates nothing; where the file system
// has no such lock, the pid in the file is checked (pidHeld).
func lockHeld(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	lk := wholeFile(syscall.F_WRLCK)
	if err := syscall.FcntlFlock(f.Fd(), fOFDGetlk, &lk); err != nil {
		return pidHeld(path)
	}
	return lk.Type != syscall.F_UNLCK
}

// wholeFile is a lock of type typ on the whole file, as the F_OFD commands
// take it (Pid 0).
func wholeFile(typ int16) syscall.Flock_t {
	return syscall.Flock_t{Type: typ, Whence: io.SeekStart}
}
