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

// hangsStarted is closed when BenchmarkHangs starts.
var hangsStarted = make(chan struct{})

// lateError's message waits for BenchmarkHangs to start (for a while at
// most): the runtime prints a panic's message after the panicking
// benchmark has let the next one start, and this makes that happen always.
type lateError struct{}

func (lateError) Error() string {
	select {
	case <-hangsStarted:
	case <-time.After(2 * time.Second):
	}
	return "broken on purpose"
}

func BenchmarkPanics(b *testing.B) {
	panic(lateError{})
}

func BenchmarkHangs(b *testing.B) {
	close(hangsStarted)
	for {
		time.Sleep(time.Second)
	}
}
