package deque

import "testing"

func TestInsert(t *testing.T) {
	var d Deque
	d.Insert(0, 1)
	d.Insert(0, 2)
	d.Insert(1, 3)
	if d.Len() != 3 || d.buf[0] != 2 || d.buf[1] != 3 || d.buf[2] != 1 {
		t.Fatalf("buf = %v", d.buf)
	}
}

// BenchmarkInsert holds b.N elements: an operation costs O(b.N).
func BenchmarkInsert(b *testing.B) {
	var d Deque
	for i := 0; i < b.N; i++ {
		d.Insert(d.Len()/2, i)
	}
}
