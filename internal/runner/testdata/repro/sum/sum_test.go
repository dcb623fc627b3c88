package sum

import "testing"

func TestChecksum(t *testing.T) {
	if got := Checksum([]byte{1, 2}); got != 33 {
		t.Fatalf("Checksum = %d, want 33", got)
	}
}

func TestSeed(t *testing.T) {
	if got := Seed(1, []uint32{1}); got != 2654435760 {
		t.Fatalf("Seed = %d, want 2654435760", got)
	}
}

var sink uint32

func BenchmarkChecksum(b *testing.B) {
	data := make([]byte, 64<<10)
	for i := range data {
		data[i] = byte(i)
	}
	one := []uint32{7}
	for i := 0; i < b.N; i++ {
		sink += Checksum(data) ^ Seed(i, one)
	}
}
