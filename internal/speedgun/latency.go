package speedgun

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// latencyUnit is a latency quantile's unit: p99.95-ns/op, or as
// benchfmt tidies it (and perfmut.yaml's metrics: are kept),
// p99.95-sec/op.
var latencyUnit = regexp.MustCompile(`^p([0-9]+(?:\.[0-9]+)?)-(?:ns|sec)/op$`)

// firstLatencyUnit returns the first of a campaign's custom units (its
// metrics:, tidied or not) that is a latency quantile, as the unit
// Config.Latency takes (pQ-ns/op), or "".
func firstLatencyUnit(units []string) string {
	for _, u := range units {
		if m := latencyUnit.FindStringSubmatch(u); m != nil {
			if _, _, ok := latencyQuantile(u); ok {
				return "p" + m[1] + "-ns/op"
			}
		}
	}
	return ""
}

// latencyQuantile parses a latency unit into its quantile as the
// fraction num/den (p99.95 is 9995/10000), exact for the rank's integer
// arithmetic.
func latencyQuantile(unit string) (num, den int64, ok bool) {
	m := latencyUnit.FindStringSubmatch(unit)
	if m == nil {
		return 0, 0, false
	}
	whole, frac, _ := strings.Cut(m[1], ".")
	num, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || len(frac) > 6 {
		return 0, 0, false
	}
	den = 100
	for range len(frac) {
		den *= 10
	}
	if num <= 0 || num >= den {
		return 0, 0, false
	}
	return num, den, true
}

// latencyLoop is the timed part of a benchmark that also reports the
// quantile num/den of its ops' latencies (nearest rank) as unit: each goroutine
// times its ops into a buffer of its own, allocated before the timer
// starts (so that B/op stays the calls' own), merged once it is done.
func latencyLoop(parallelism, repeat int, num, den int64, unit string) string {
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
rank := (int64(len(lat))*%[3]d+%[4]d-1)/%[4]d - 1
if rank < 0 {
rank = 0
}
b.ReportMetric(float64(lat[rank].Nanoseconds()), %[5]q)
`, parallelism, repeat, num, den, unit)
}
