package sum

import (
	"flag"
	"os"
	"testing"
)

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3}); got != 6 {
		t.Fatalf("Sum = %d, want 6", got)
	}
}

var sink int

// BenchmarkSum counts its coverage runs (processes writing a profile) in
// the file covruns: the third and later fail. The run of one iteration
// that starts every process is not counted.
func BenchmarkSum(b *testing.B) {
	if f := flag.Lookup("test.coverprofile"); f != nil && f.Value.String() != "" && b.N > 1 {
		runs, _ := os.ReadFile("covruns")
		runs = append(runs, '.')
		if err := os.WriteFile("covruns", runs, 0o644); err != nil {
			b.Fatal(err)
		}
		if len(runs) >= 3 {
			b.Fatalf("coverage run %d fails", len(runs))
		}
	}
	xs := []int{1, 2, 3, 4}
	for range b.N {
		sink += Sum(xs)
	}
}
