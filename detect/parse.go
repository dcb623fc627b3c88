package detect

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// parseNsPerOp reads go test -bench output with count rounds: sample i is
// the sum over the benchmark's result lines (its sub-benchmarks) of their
// i-th ns/op.
func parseNsPerOp(out string, count int) []float64 {
	byName := map[string][]float64{}
	var order []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		for i := 2; i+1 < len(f); i += 2 {
			if f[i+1] != "ns/op" {
				continue
			}
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			if _, ok := byName[f[0]]; !ok {
				order = append(order, f[0])
			}
			byName[f[0]] = append(byName[f[0]], v)
		}
	}
	var xs []float64
	for i := 0; i < count; i++ {
		sum := 0.0
		for _, n := range order {
			if i >= len(byName[n]) {
				return xs
			}
			sum += byName[n][i]
		}
		if len(order) > 0 {
			xs = append(xs, sum)
		}
	}
	return xs
}

// median of xs (xs not empty).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// iterations is the b.N that makes a run of about d at nsPerOp, at least 1.
func iterations(d time.Duration, nsPerOp float64) int {
	if !(nsPerOp > 0) {
		return 1
	}
	n := float64(d.Nanoseconds()) / nsPerOp
	return int(math.Max(1, math.Min(n, 1e9)))
}
