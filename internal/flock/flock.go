// Package flock takes advisory whole-file locks (flock(2)) where the
// system has them: the kernel releases such a lock when the open file that
// holds it is closed, also when its process is killed.
package flock

import "errors"

// ErrUnsupported is returned by TryLock where the system or the file
// system has no flock.
var ErrUnsupported = errors.ErrUnsupported
