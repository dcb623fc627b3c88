package kv

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestStore(t *testing.T) {
	s := New()
	v := []byte("abc")
	s.Set("b", v)
	v[0] = 'x' // Set keeps a copy
	if got, want := s.Checksum("b"), uint64(0xe71fa2190541574b); got != want {
		t.Errorf("Checksum(b) = %#x, want %#x", got, want)
	}
	if got, want := s.Checksum("none"), uint64(14695981039346656037); got != want {
		t.Errorf("Checksum(none) = %#x, want %#x", got, want)
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
	if got, want := s.Checksum("7"), (s.Checksum("none")^'7')*1099511628211; got != want {
		t.Errorf("Checksum(7) = %#x, want %#x", got, want)
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := range 2000 {
		d = append(d, time.Duration(2000-i))
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{0.9995, 1999}, {0.999, 1998}, {0.5, 1000}, {0, 1}} {
		if got := percentile(d, c.p); got != c.want {
			t.Errorf("percentile(1..2000, %v) = %d, want %d", c.p, got, c.want)
		}
	}
	if got := percentile(nil, 0.5); got != 0 {
		t.Errorf("percentile(nil) = %d, want 0", got)
	}
}

// filled returns a store of n keys with size-byte values.
func filled(n, size int) (*Store, []string) {
	s := New()
	keys := make([]string, n)
	v := make([]byte, size)
	for i := range keys {
		keys[i] = fmt.Sprintf("key%05d", i)
		v[0] = byte(i)
		s.Set(keys[i], v)
	}
	return s, keys
}

// BenchmarkChecksum hashes one 128 KiB value per iteration from one
// goroutine: a large operation, of which the read lock is the first few
// nanoseconds.
func BenchmarkChecksum(b *testing.B) {
	s, keys := filled(1, 128<<10)
	b.ResetTimer()
	for range b.N {
		s.Checksum(keys[0])
	}
}

// clients is how many goroutines per GOMAXPROCS the parallel benchmarks
// run: more than the processors, as a server has more requests in flight
// than cores, so a client that waits leaves its processor to another.
const clients = 4

// BenchmarkChecksumParallel reads 256-byte values from clients x
// GOMAXPROCS goroutines at once, where readers that serialize show.
func BenchmarkChecksumParallel(b *testing.B) {
	s, keys := filled(1024, 256)
	timeParallel(b, func(i int) { s.Checksum(keys[i%len(keys)]) })
}

// BenchmarkSetParallel writes 256-byte values from clients x GOMAXPROCS
// goroutines at once.
func BenchmarkSetParallel(b *testing.B) {
	s, keys := filled(1024, 256)
	v := make([]byte, 256)
	timeParallel(b, func(i int) { s.Set(keys[i%len(keys)], v) })
}

// timeParallel runs op(i) for b.N values of i from clients x GOMAXPROCS
// goroutines at once under b.RunParallel, times every call and reports, next
// to the mean, the 99.95th percentile of the calls' latencies as
// p99.95-ns/op. The latencies go to buffers allocated before the timer
// starts, so that B/op is op's alone. A spike at one call in k moves the
// percentile once a sample has more than 2k calls: by nearest rank, the
// 99.9th percentile of n calls moves only if more than n/1000 of them are
// slow, and one in a thousand is not more.
func timeParallel(b *testing.B, op func(i int)) {
	procs := clients * runtime.GOMAXPROCS(0)
	bufs := make(chan []time.Duration, procs)
	for range procs {
		bufs <- make([]time.Duration, 0, b.N)
	}
	all := make([]time.Duration, 0, b.N)
	var mu sync.Mutex
	b.SetParallelism(clients)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		d := <-bufs
		for i := 0; pb.Next(); i++ {
			t0 := time.Now()
			op(i)
			d = append(d, time.Since(t0))
		}
		mu.Lock()
		all = append(all, d...)
		mu.Unlock()
	})
	b.StopTimer()
	b.ReportMetric(float64(percentile(all, 0.9995).Nanoseconds()), "p99.95-ns/op")
}

// percentile returns the p-quantile of d by the nearest-rank method; it
// sorts d.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	i := int(float64(len(d))*p+0.999999) - 1
	return d[max(i, 0)]
}
