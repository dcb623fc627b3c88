package calc

import "testing"

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3, 4, 5, 6, 7, 8}); got != 36 {
		t.Errorf("Sum = %d", got)
	}
}

func TestApply(t *testing.T) {
	if got := Apply(func(i int) int { return i }, 4); got != 6 {
		t.Errorf("Apply = %d", got)
	}
}

func TestDrain(t *testing.T) {
	c := make(chan int, 2)
	c <- 1
	c <- 2
	close(c)
	if got := Drain(c); got != 3 {
		t.Errorf("Drain = %d", got)
	}
}

func TestPopAll(t *testing.T) {
	q := &Queue{items: []int{1, 2, 3}}
	if got := q.PopAll(); got != 6 {
		t.Errorf("PopAll = %d", got)
	}
}

func BenchmarkDouble(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Double(i)
	}
}
