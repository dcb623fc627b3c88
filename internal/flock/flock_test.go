package flock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestTryLock: a second open file, even read-only, is refused the lock
// that a first holds, and gets it once the first releases it. Where there
// is no flock, TryLock says so.
func TestTryLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	a, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ok, err := TryLock(a)
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("no flock here: %v", err)
	}
	if !ok || err != nil {
		t.Fatalf("first TryLock = %v, %v; want the lock", ok, err)
	}
	b, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ok, err := TryLock(b); ok || err != nil {
		t.Errorf("TryLock while held = %v, %v; want false, nil", ok, err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(b); !ok || err != nil {
		t.Errorf("TryLock once released = %v, %v; want the lock", ok, err)
	}
}
