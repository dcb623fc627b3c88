// Package calc is perfmut generate's test fixture: functions no benchmark
// runs, whose arguments its tests do or do not let a literal write.
package calc

// Sum adds xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// Apply sums f over 0..n-1: a func argument no literal can write.
func Apply(f func(int) int, n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += f(i)
	}
	return s
}

// Drain sums what c holds: a channel no literal can write.
func Drain(c chan int) int {
	s := 0
	for x := range c {
		s += x
	}
	return s
}

// A Queue is a FIFO of ints.
type Queue struct{ items []int }

// PopAll pops every item and returns their sum; on an empty queue it
// panics, so that a benchmark calling it again and again panics at its
// second iteration.
func (q *Queue) PopAll() int {
	if len(q.items) == 0 {
		panic("empty queue")
	}
	s := 0
	for len(q.items) > 0 {
		s += q.items[0]
		q.items = q.items[1:]
	}
	return s
}

// Double doubles x: the one function a benchmark measures.
func Double(x int) int { return 2 * x }

// Count counts v in xs: no test calls it, so no argument is captured.
func Count(xs []int, v int) int {
	n := 0
	for _, x := range xs {
		if x == v {
			n++
		}
	}
	return n
}
