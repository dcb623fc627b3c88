package cache

import (
	"reflect"
	"strconv"
	"testing"
)

func TestLRU(t *testing.T) {
	c := New[int](2)
	c.Put("a", 1)
	c.Put("b", 2)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %d, %v; want 1, true", v, ok)
	}
	c.Put("c", 3) // evicts b
	if _, ok := c.Get("b"); ok {
		t.Errorf("b was not evicted")
	}
	if got, want := c.Keys(), []string{"c", "a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Keys = %q, want %q", got, want)
	}
	if !c.Contains("a") || c.Contains("b") {
		t.Errorf("Contains is wrong")
	}
	if c.Len() != 2 {
		t.Errorf("Len = %d, want 2", c.Len())
	}
}

func TestStats(t *testing.T) {
	if got := (Stats{Hits: 3, Misses: 1}).String(); got != "3 hits, 1 misses (75.0%)" {
		t.Errorf("String = %q", got)
	}
}

func BenchmarkGet(b *testing.B) {
	c := New[int](1024)
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
		c.Put(keys[i], i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Get(keys[i%len(keys)])
	}
}

func BenchmarkPut(b *testing.B) {
	c := New[int](128)
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Put(keys[i%len(keys)], i)
	}
}
