package failing

import "testing"

var sink int

func BenchmarkGood(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Good(sink)
	}
}

func BenchmarkBad(b *testing.B) {
	sink = Bad(sink)
	b.Fatal("broken on the baseline")
}
