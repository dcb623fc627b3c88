package speedgun

import (
	"fmt"
	"regexp"
	"strconv"
)

// latencyUnit is a latency quantile's unit: p99.95-ns/op.
var latencyUnit = regexp.MustCompile(`^p([0-9]+(?:\.[0-9]+)?)-ns/op$`)

// LatencyUnit returns the first of a campaign's custom units (its
// metrics:) that Config.Latency accepts, a latency quantile pQ-ns/op, or
// "".
func LatencyUnit(units []string) string {
	for _, u := range units {
		if _, ok := latencyQuantile(u); ok {
			return u
		}
	}
	return ""
}

// latencyQuantile parses a latency unit into its quantile (0.9995).
func latencyQuantile(unit string) (float64, bool) {
	m := latencyUnit.FindStringSubmatch(unit)
	if m == nil {
		return 0, false
	}
	p, err := strconv.ParseFloat(m[1], 64)
	if err != nil || p <= 0 || p >= 100 {
		return 0, false
	}
	return p / 100, true
}

// latencyLoop is the timed part of a benchmark that also reports the
// quantile q of its ops' latencies (nearest rank) as unit: each goroutine
// times its ops into a buffer of its own, allocated before the timer
// starts (so that B/op stays the calls' own), merged once it is done.
func latencyLoop(parallelism, repeat int, q float64, unit string) string {
	return fmt.Sprintf(`procs := %[1]d * runtime.GOMAXPROCS(0)
bufs := make(chan []time.Duration, procs)
for i := 0; i < procs; i++ {
bufs <- make([]time.Duration, 0, b.N)
}
var mu sync.Mutex
lat := make([]time.Duration, 0, b.N)
b.SetParallelism(%[1]d)
b.ResetTimer()
b.RunParallel(func(pb *testing.PB) {
g := int(atomic.AddInt64(&next, 1) - 1)
d := <-bufs
for op := g; pb.Next(); op++ {
suffix := suffixes[op%%len(suffixes)]
t0 := time.Now()
for i := 0; i < %[2]d; i++ {
suffix()
}
d = append(d, time.Since(t0))
}
mu.Lock()
lat = append(lat, d...)
mu.Unlock()
})
b.StopTimer()
sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
rank := int(math.Ceil(float64(len(lat))*%[3]s)) - 1
if rank < 0 {
rank = 0
}
b.ReportMetric(float64(lat[rank].Nanoseconds()), %[4]q)
`, parallelism, repeat, strconv.FormatFloat(q, 'g', -1, 64), unit)
}
