//go:build unix && !linux && !solaris && !aix

package outdir

import "os"

// acquireLock takes the lock file at path with flock(2) (see acquire).
func acquireLock(path string) (f *os.File, held bool, err error) {
	return acquire(path, tryFlock)
}

// lockHeld reports whether a live process holds the lock file at path, by
// the pid its holder wrote into it (pidHeld): testing the flock would take
// it for a moment, and a process locking the directory at that moment
// would be refused. It creates nothing.
func lockHeld(path string) bool { return pidHeld(path) }
