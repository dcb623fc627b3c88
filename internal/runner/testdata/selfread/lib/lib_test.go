package lib

import (
	"os"
	"strings"
	"testing"
)

func TestDouble(t *testing.T) {
	if got := Double(2); got != 4 {
		t.Errorf("Double(2) = %d, want 4", got)
	}
}

// TestSourceUnchanged stands for a golden test over the package's own
// source: it fails when lib.go differs from what it expects.
func TestSourceUnchanged(t *testing.T) {
	src, err := os.ReadFile("lib.go")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(src), "perfmut") {
		t.Errorf("lib.go is not the checked-in source")
	}
}

func BenchmarkDouble(b *testing.B) {
	for b.Loop() {
		Double(3)
	}
}
