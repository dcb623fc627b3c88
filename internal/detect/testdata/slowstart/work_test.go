package slowstart

import "testing"

var sink uint64

func BenchmarkSum(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Sum()
	}
}
