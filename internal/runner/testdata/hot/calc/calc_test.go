package calc

import "testing"

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3}); got != 6 {
		t.Fatalf("Sum = %d, want 6", got)
	}
}

func TestFind(t *testing.T) {
	if got := Find([]int{1, 5, 7, 9}, 5); got != 1 {
		t.Fatalf("Find = %d, want 1", got)
	}
}

func TestPrepare(t *testing.T) {
	if got := len(Prepare(4)); got != 4 {
		t.Fatalf("len(Prepare(4)) = %d, want 4", got)
	}
}

func TestUnused(t *testing.T) {
	if got := Unused(3); got != 27 {
		t.Fatalf("Unused(3) = %d, want 27", got)
	}
}

var sink int

func BenchmarkSum(b *testing.B) {
	xs := Prepare(1000)
	for b.Loop() {
		sink += Sum(xs)
	}
}

func BenchmarkFind(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt32(n), func(b *testing.B) {
			xs := Prepare(n)
			for i := 0; i < b.N; i++ {
				sink += Find(xs, n/2)
			}
		})
	}
}

func fmt32(n int) string {
	if n == 10 {
		return "n=10"
	}
	return "n=1000"
}
