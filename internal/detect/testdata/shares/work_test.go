package shares

import "testing"

var sink uint64

func BenchmarkWork(b *testing.B) {
	x := Prepare()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x = Half(x)
		x = Rest(x)
		x = Small(x)
	}
	sink = x
}
