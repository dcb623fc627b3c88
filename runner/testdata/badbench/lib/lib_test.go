package lib

import (
	"testing"
	"time"
)

func TestDouble(t *testing.T) {
	if Double(3) != 6 {
		t.Fatal("Double")
	}
}

var sink int

func BenchmarkDouble(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Double(i)
	}
}

func BenchmarkPanics(b *testing.B) {
	panic("broken on purpose")
}

func BenchmarkHangs(b *testing.B) {
	for {
		time.Sleep(time.Second)
	}
}
