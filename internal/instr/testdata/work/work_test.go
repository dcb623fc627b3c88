package work

import "testing"

var (
	sink  uint64
	slice []uint64
)

// BenchmarkWork runs 4096 rounds of Mix per operation.
func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Mix(sink, 4096)
	}
}

// BenchmarkWork2x runs 8192 rounds of Mix per operation: twice the work.
func BenchmarkWork2x(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Mix(sink, 8192)
	}
}

// BenchmarkAlloc allocates per operation and sets up a large slice first:
// the set-up and the allocations show in the whole-process count but the
// set-up cancels in the difference.
func BenchmarkAlloc(b *testing.B) {
	setup := make([]uint64, 1<<16)
	for i := range setup {
		setup[i] = Mix(uint64(i), 16)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		slice = make([]uint64, 64)
		slice[0] = setup[i%len(setup)]
	}
}
