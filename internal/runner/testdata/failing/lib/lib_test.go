package lib

import "testing"

func TestDouble(t *testing.T) {
	if got := Double(2); got != 5 {
		t.Errorf("Double(2) = %d, want 5 (this test is wrong on purpose)", got)
	}
}

func BenchmarkDouble(b *testing.B) {
	for b.Loop() {
		Double(3)
	}
}
