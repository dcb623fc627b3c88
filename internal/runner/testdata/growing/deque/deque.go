// Package deque is a benchmark whose cost per operation grows with b.N,
// like gammazero/deque's BenchmarkInsert: under a time-based -benchtime a
// slower mutant gets a smaller b.N and cheaper operations, and hides.
package deque

// Deque is a slice-backed sequence.
type Deque struct{ buf []int }

// Insert puts x at position i, shifting what follows.
func (d *Deque) Insert(i, x int) {
	d.buf = append(d.buf, 0)
	copy(d.buf[i+1:], d.buf[i:])
	d.buf[i] = x
}

// Len is the number of elements.
func (d *Deque) Len() int { return len(d.buf) }
