//go:build unix && !solaris && !aix

package outdir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestTryFlock: a second open file, even read-only, is refused the lock
// that a first holds, and gets it once the first releases it. Where there
// is no flock, tryFlock says so.
func TestTryFlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	a, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ok, err := tryFlock(a)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no flock here: %v", err)
	}
	if !ok || err != nil {
		t.Fatalf("first tryFlock = %v, %v; want the lock", ok, err)
	}
	b, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ok, err := tryFlock(b); ok || err != nil {
		t.Errorf("tryFlock while held = %v, %v; want false, nil", ok, err)
	}
	if err := unflock(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := tryFlock(b); !ok || err != nil {
		t.Errorf("tryFlock once released = %v, %v; want the lock", ok, err)
	}
}
