package outdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/proc"
)

// LockFile, in a results directory, is the lock of the perfmut process
// writing there: it holds the process's pid and start time, and is
// removed when the process ends (one killed with SIGKILL leaves it; the
// next perfmut sees that its process is gone and takes it).
const LockFile = ".perfmut.lock"

// lockInfo is what a lock file holds: which process holds the lock, since
// when.
type lockInfo struct {
	PID   int       `json:"pid"`
	Since time.Time `json:"since"`
}

// An InUseError says that another perfmut process writes into a results
// directory.
type InUseError struct {
	Dir   string    // the directory, as given
	PID   int       // the holder's pid; 0 if its lock file could not be read
	Since time.Time // when it took the lock
}

func (e *InUseError) Error() string {
	who := "another perfmut process"
	if e.PID > 0 {
		who = fmt.Sprintf("perfmut (pid %d, since %s)", e.PID, e.Since.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	return fmt.Sprintf("-out %s is in use by %s; wait for it to finish, or choose another -out", e.Dir, who)
}

// A Locked is a held lock on a results directory: until Unlock, every
// other perfmut that locks the directory is refused.
type Locked struct {
	f    *os.File
	path string
}

// Lock locks the results directory dir (which exists) for this process,
// and writes MarkerFile into it.
// When another live process holds it, the error is an *inputerr.Error
// wrapping an *InUseError, which names that process.
func Lock(dir string) (*Locked, error) { return lock(dir, time.Now()) }

func lock(dir string, now time.Time) (*Locked, error) {
	path, err := filepath.Abs(filepath.Join(dir, LockFile))
	if err != nil {
		return nil, err
	}
	info := lockInfo{PID: os.Getpid(), Since: now.UTC().Truncate(time.Second)}
	f, held, err := acquireLock(path)
	if err != nil {
		return nil, fmt.Errorf("-out %s: cannot lock it: %w", dir, err)
	}
	if held {
		return nil, &inputerr.Error{Err: inUse(dir, path)}
	}
	data, _ := json.Marshal(info)
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt(append(data, '\n'), 0)
	}
	if err != nil {
		l := &Locked{f, path}
		l.Unlock()
		return nil, fmt.Errorf("-out %s: cannot write its lock: %w", dir, err)
	}
	// The holder writes perfmut's results there: the directory says so
	// (a read-only one that could be locked stays as it is).
	Mark(dir)
	return &Locked{f, path}, nil
}

// Unlock releases the lock and removes its file.
func (l *Locked) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Removed before the release, so that a new holder's file is never
	// removed; Windows removes no open file, and a pid lock file can have
	// no new holder while it exists.
	rmErr := os.Remove(l.path)
	err := l.f.Close()
	l.f = nil
	if rmErr != nil {
		os.Remove(l.path)
	}
	return err
}

// CheckUnlocked says (an *inputerr.Error wrapping an *InUseError) when another
// live process holds the results directory dir, without creating or
// changing anything.
func CheckUnlocked(dir string) error {
	path := filepath.Join(dir, LockFile)
	if lockHeld(path) {
		return &inputerr.Error{Err: inUse(dir, path)}
	}
	return nil
}

// inUse is the error for dir, whose lock at path another process holds.
// A holder that has just taken the lock may not have written its pid yet:
// the file is read again for a moment.
func inUse(dir, path string) *InUseError {
	e := &InUseError{Dir: dir}
	for range 20 {
		if info, ok := readLockInfo(path); ok {
			e.PID, e.Since = info.PID, info.Since
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return e
}

// readLockInfo reads the lock file at path.
func readLockInfo(path string) (lockInfo, bool) {
	var info lockInfo
	data, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(data, &info) != nil || info.PID <= 0 {
		return lockInfo{}, false
	}
	return info, true
}

// pidLock is the lock where the system has none perfmut can use: the lock
// file is created exclusively, and one whose process is gone (or that
// holds no pid and is older than staleUnwritten) is taken (takeStale).
func pidLock(path string) (f *os.File, held bool, err error) {
	// While another process takes a stale lock, which takes a moment,
	// the file is tried again.
	for range 100 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return f, false, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, false, err
		}
		if pidHeld(path) {
			return nil, true, nil
		}
		if f, err := takeStale(path); f != nil || err != nil {
			return f, false, err
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil, true, nil
}

// takeStale takes the stale pid lock file at path, or returns nil when it
// cannot now. Two processes that both found it stale must not both take
// it: the file is never removed, but emptied in place (an empty new file
// is a lock being written, pidHeld), and only by a process holding a
// second file, path+".take", created exclusively, after it checks again
// that the file at path is the one it opened and still stale. A .take file
// older than staleUnwritten was left by a process killed in that moment
// and is removed.
func takeStale(path string) (*os.File, error) {
	guard := path + ".take"
	g, err := os.OpenFile(guard, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		if fi, err := os.Stat(guard); err == nil && time.Since(fi.ModTime()) > staleUnwritten {
			os.Remove(guard)
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { g.Close(); os.Remove(guard) }()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if pidHeld(path) || !sameFile(f, path) {
		f.Close()
		return nil, nil
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, err
	}
	// Emptied, the file reads as a lock being written from now on.
	now := time.Now()
	os.Chtimes(path, now, now)
	return f, nil
}

// sameFile reports whether the open file f is the file at path.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// staleUnwritten is how long a lock file may hold no pid (its holder is
// writing it) before it is taken as a killed process's.
const staleUnwritten = 10 * time.Second

// pidHeld reports whether the pid lock file at path is held: it names a
// live process, or it is being written.
func pidHeld(path string) bool {
	if info, ok := readLockInfo(path); ok {
		return proc.Alive(info.PID)
	}
	fi, err := os.Stat(path)
	return err == nil && time.Since(fi.ModTime()) < staleUnwritten
}
