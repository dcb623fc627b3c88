package pick

import (
	"math/rand/v2"
	"testing"
)

func TestIndex(t *testing.T) {
	if got := Index([]int{4, 2, 7}, 7); got != 2 {
		t.Fatalf("Index = %d, want 2", got)
	}
	if got := Index([]int{4, 2, 7}, 9); got != -1 {
		t.Fatalf("Index = %d, want -1", got)
	}
}

// shuffled is 0..4095 in an order random per process: two processes put
// a key at the same position once in 4096.
var shuffled = rand.Perm(4096)

var sink int

// BenchmarkIndex: "a" and "b" look for 0 and 1 in shuffled, at positions
// random per process; "fixed" looks for 10 in 0..63, at position 10.
func BenchmarkIndex(b *testing.B) {
	sorted := make([]int, len(shuffled))
	for i := range sorted {
		sorted[i] = i
	}
	for _, c := range []struct {
		name string
		xs   []int
		x    int
	}{{"a", shuffled, 0}, {"b", shuffled, 1}, {"fixed", sorted, 10}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				sink += Index(c.xs, c.x)
			}
		})
	}
}
