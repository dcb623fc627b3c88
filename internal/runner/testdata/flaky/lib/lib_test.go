package lib

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestTriple(t *testing.T) {
	if Triple(2) != 6 {
		t.Fatal("Triple")
	}
}

// TestFlaky fails on every third run (the 2nd, 5th, ...) of the test
// binaries sharing $TMPDIR, like a test that depends on timing.
func TestFlaky(t *testing.T) {
	f := filepath.Join(os.TempDir(), "perfmut-flaky-count")
	data, _ := os.ReadFile(f)
	n, _ := strconv.Atoi(string(data))
	os.WriteFile(f, []byte(strconv.Itoa(n+1)), 0o644)
	if n%3 == 1 {
		t.Fatal("unlucky run")
	}
}

var sink int

func BenchmarkTriple(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Triple(i)
	}
}
