package detect

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// parseNsPerOp reads go test -bench output with count rounds of several
// benchmarks: by top-level benchmark (topName), sample i is the sum over
// its result lines (its sub-benchmarks) of their i-th ns/op.
func parseNsPerOp(out string, count int) map[string][]float64 {
	byLine := map[string][]float64{}
	order := map[string][]string{} // top-level name -> its result names
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
			top := topName(f[0])
			if _, ok := byLine[f[0]]; !ok {
				order[top] = append(order[top], f[0])
			}
			byLine[f[0]] = append(byLine[f[0]], v)
		}
	}
	out2 := map[string][]float64{}
	for top, lines := range order {
		var xs []float64
		for i := 0; i < count; i++ {
			sum := 0.0
			for _, n := range lines {
				if i >= len(byLine[n]) {
					sum = -1
					break
				}
				sum += byLine[n][i]
			}
			if sum < 0 {
				break
			}
			xs = append(xs, sum)
		}
		out2[top] = xs
	}
	return out2
}

// topName is the top-level benchmark of a result line's name:
// BenchmarkX/sub-2 -> BenchmarkX, BenchmarkY-8 -> BenchmarkY.
func topName(s string) string {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return s[:i]
	}
	if i := strings.LastIndexByte(s, '-'); i >= 0 && isDigits(s[i+1:]) {
		return s[:i]
	}
	return s
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
