package app

import "testing"

func TestHasZero(t *testing.T) {
	if !HasZero([]int{1, 0}) || HasZero([]int{1}) {
		t.Fatal("HasZero")
	}
}

var sink bool

func BenchmarkHasZero(b *testing.B) {
	xs := make([]int, 1000)
	for i := 0; i < b.N; i++ {
		sink = HasZero(xs)
	}
}
