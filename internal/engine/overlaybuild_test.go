package engine

import (
	"reflect"
	"testing"
)

// TestConcurrentIn: a benchmark of an overlay's test file that calls
// RunParallel or starts a goroutine is concurrent (so -measure
// instructions keeps it on wall time); a sequential one and a non-test
// file are not.
func TestConcurrentIn(t *testing.T) {
	src := []byte(`package p

import "testing"

func BenchmarkPar(b *testing.B) { b.RunParallel(func(pb *testing.PB) { for pb.Next() {} }) }
func BenchmarkGo(b *testing.B) { done := make(chan bool); go func() { done <- true }(); <-done }
func BenchmarkSeq(b *testing.B) { for range b.N {} }
func helper(b *testing.B) { b.RunParallel(nil) }
`)
	if got, want := concurrentIn("/m/p/gen_test.go", src), map[string]bool{"BenchmarkPar": true, "BenchmarkGo": true}; !reflect.DeepEqual(got, want) {
		t.Errorf("concurrentIn = %v, want %v", got, want)
	}
	if got := concurrentIn("/m/p/gen.go", src); len(got) != 0 {
		t.Errorf("a non-test file: %v, want none", got)
	}
}
