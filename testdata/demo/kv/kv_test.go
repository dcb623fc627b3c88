package kv

import (
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
)

func TestStore(t *testing.T) {
	s := New()
	v := []byte("abc")
	s.Set("b", v)
	s.Set("a", nil)
	v[0] = 'x' // Set keeps a copy
	if got, want := s.Checksum("b"), uint64(0xe71fa2190541574b); got != want {
		t.Errorf("Checksum(b) = %#x, want %#x", got, want)
	}
	if got, want := s.Checksum("none"), uint64(14695981039346656037); got != want {
		t.Errorf("Checksum(none) = %#x, want %#x", got, want)
	}
	if got := s.Keys(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Keys = %q, want [a b]", got)
	}
}

// TestConcurrent reads and writes from several goroutines (run it with
// -race).
func TestConcurrent(t *testing.T) {
	s := New()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				k := fmt.Sprint(i % 10)
				if g == 0 {
					s.Set(k, []byte(k))
				}
				s.Checksum(k)
			}
		}()
	}
	wg.Wait()
	if n := len(s.Keys()); n != 10 {
		t.Errorf("%d keys, want 10", n)
	}
}

// filled returns a store of n keys with 256-byte values.
func filled(n int) (*Store, []string) {
	s := New()
	keys := make([]string, n)
	v := make([]byte, 256)
	for i := range keys {
		keys[i] = fmt.Sprintf("key%05d", i)
		v[0] = byte(i)
		s.Set(keys[i], v)
	}
	return s, keys
}

// BenchmarkChecksum reads from one goroutine.
func BenchmarkChecksum(b *testing.B) {
	s, keys := filled(1024)
	for i := 0; i < b.N; i++ {
		s.Checksum(keys[i%len(keys)])
	}
}

// BenchmarkChecksumParallel reads from GOMAXPROCS goroutines at once, where
// readers that serialize show.
func BenchmarkChecksumParallel(b *testing.B) {
	s, keys := filled(1024)
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			s.Checksum(keys[i%len(keys)])
		}
	})
}

// BenchmarkKeys reports the mean time of Keys over 2000 keys.
func BenchmarkKeys(b *testing.B) {
	s, _ := filled(2000)
	for range b.N {
		s.Keys()
	}
}

// keysPerOp is how many calls of Keys one iteration of BenchmarkKeysLatency
// times: enough that a rare slow call lands in every sample.
const keysPerOp = 600

// BenchmarkKeysLatency times keysPerOp calls of Keys per iteration and
// reports the 99.9th percentile of their latencies as p99.9-ns/op, next to
// the mean: a slowdown of one call in a few hundred moves the mean by
// little and the percentile by all of it.
func BenchmarkKeysLatency(b *testing.B) {
	s, _ := filled(2000)
	lat := make([]time.Duration, 0, keysPerOp*b.N)
	for range b.N {
		for range keysPerOp {
			t0 := time.Now()
			s.Keys()
			lat = append(lat, time.Since(t0))
		}
	}
	b.ReportMetric(float64(percentile(lat, 0.999).Nanoseconds()), "p99.9-ns/op")
}

// percentile returns the p-quantile of d by the nearest-rank method.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	i := int(float64(len(d))*p+0.999999) - 1
	return d[max(i, 0)]
}
