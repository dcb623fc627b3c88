package lib

import "testing"

func TestSumAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(10, func() { Sum(1, 2) }); n != 0 {
		t.Errorf("Sum allocates %v times per call, want 0", n)
	}
}

func TestDouble(t *testing.T) {
	if got := Double(2); got != 4 {
		t.Errorf("Double(2) = %d, want 4", got)
	}
}

func BenchmarkDouble(b *testing.B) {
	for b.Loop() {
		Double(3)
	}
}
