package set

import "testing"

func TestEvict(t *testing.T) {
	var s Set
	for i := 0; i < 2*Cap; i++ {
		s.Add(i)
	}
	if s.Len() != Cap {
		t.Errorf("Len = %d, want %d", s.Len(), Cap)
	}
}

func BenchmarkAdd(b *testing.B) {
	var s Set
	for i := 0; i < b.N; i++ {
		s.Add(i)
	}
}
