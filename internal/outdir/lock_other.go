//go:build !unix || solaris || aix

package outdir

import "os"

// acquireLock takes the lock file at path where perfmut has no flock(2)
// (Windows, Solaris, AIX): the pid lock.
func acquireLock(path string) (f *os.File, held bool, err error) { return pidLock(path) }

// lockHeld reports whether a live process holds the lock file at path; it
// creates nothing.
func lockHeld(path string) bool { return pidHeld(path) }
