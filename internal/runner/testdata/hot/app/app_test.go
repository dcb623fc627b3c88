package app

import (
	"sync/atomic"
	"testing"

	"example.com/hot/calc"
)

func TestTotal(t *testing.T) {
	if got := Total([]int{1, 2}); got != 6 {
		t.Fatalf("Total = %d, want 6", got)
	}
}

// TestTotalUnused runs Total and calc.Unused, which no benchmark runs.
func TestTotalUnused(t *testing.T) {
	if Total([]int{1}) != 2 || calc.Unused(2) != 9 {
		t.Fatal("Total or Unused is wrong")
	}
}

var sink atomic.Int64

func BenchmarkTotalParallel(b *testing.B) {
	xs := calc.Prepare(100)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			sink.Add(int64(Total(xs)))
		}
	})
}
