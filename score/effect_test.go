package score

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMedianRatio(t *testing.T) {
	tests := []struct {
		name             string
		baseline, mutant []float64
		seed             int64
		ratio, lo, hi    float64
	}{
		{"constant", []float64{1024, 1024, 1024}, []float64{2048, 2048, 2048, 2048}, 1, 2, 2, 2},
		{"equal", []float64{5, 5}, []float64{5, 5}, 1, 1, 1, 1},
		// Medians 12 and 22. The interval ends are ratios of resampled
		// medians, pinned for seed 1 (for odd n a resampled median is one of
		// the values): 20/13 and 22/10.
		{"shift", []float64{14, 10, 12, 13, 11}, []float64{22, 20, 24, 21, 23}, 1, 22.0 / 12, 20.0 / 13, 22.0 / 10},
		// Even sizes: medians 2.5 and 25; seed 1 gives 10/2.5 and 25/1.
		{"even", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1, 10, 4, 25},
		{"zero baseline", []float64{0, 0, 0}, []float64{1, 1, 1}, 1, math.Inf(1), math.Inf(1), math.Inf(1)},
		{"zero both", []float64{0, 0, 0}, []float64{0, 0, 0}, 1, 1, 1, 1},
	}
	for _, tt := range tests {
		b0, m0 := slices.Clone(tt.baseline), slices.Clone(tt.mutant)
		r, lo, hi := MedianRatio(tt.baseline, tt.mutant, tt.seed)
		if !same(r, tt.ratio) || !same(lo, tt.lo) || !same(hi, tt.hi) {
			t.Errorf("%s: MedianRatio = (%v, %v, %v), want (%v, %v, %v)", tt.name, r, lo, hi, tt.ratio, tt.lo, tt.hi)
		}
		if !slices.Equal(b0, tt.baseline) || !slices.Equal(m0, tt.mutant) {
			t.Errorf("%s: MedianRatio modified its arguments", tt.name)
		}
	}
	if r, lo, hi := MedianRatio(nil, []float64{1}, 1); !math.IsNaN(r) || !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("empty baseline: (%v, %v, %v), want NaNs", r, lo, hi)
	}
}

func same(a, b float64) bool { return a == b || close(a, b) }

// TestResampledMedian checks the counting median against sorting the same
// resample.
func TestResampledMedian(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for iter := range 200 {
		n := 1 + iter%37
		x := normals(r, n, 0, 1)
		slices.Sort(x)
		seed := uint64(iter)
		got := resampledMedian(rand.NewPCG(seed, 1), x, make([]int, n))
		// The same draws, materialized.
		g := rand.NewPCG(seed, 1)
		var res []float64
		for len(res) < n {
			u := g.Uint64()
			res = append(res, x[(u&0xffffffff)*uint64(n)>>32])
			if len(res) < n {
				res = append(res, x[(u>>32)*uint64(n)>>32])
			}
		}
		slices.Sort(res)
		if want := median(res); got != want {
			t.Fatalf("n=%d: resampledMedian = %v, sorted resample median %v", n, got, want)
		}
	}
}

// TestMedianRatioCoverage checks that the 95% interval covers the true
// ratio of medians about 95% of the time (lognormal data, true ratio 1.5,
// 30 samples each).
func TestMedianRatioCoverage(t *testing.T) {
	const trials = 300
	r := rand.New(rand.NewPCG(9, 10))
	covered := 0
	for i := range trials {
		x, y := make([]float64, 30), make([]float64, 30)
		for j := range x {
			x[j] = math.Exp(0.1 * r.NormFloat64())
			y[j] = 1.5 * math.Exp(0.1*r.NormFloat64())
		}
		ratio, lo, hi := MedianRatio(x, y, int64(i))
		if !(lo <= ratio && ratio <= hi) {
			t.Fatalf("ratio %v outside its interval [%v, %v]", ratio, lo, hi)
		}
		if lo <= 1.5 && 1.5 <= hi {
			covered++
		}
	}
	if rate := float64(covered) / trials; rate < 0.88 || rate > 0.995 {
		t.Errorf("coverage %.3f, want about 0.95", rate)
	}
}

func TestMedianRatioSeed(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	x, y := normals(r, 20, 10, 1), normals(r, 20, 11, 1)
	a1, a2, a3 := MedianRatio(x, y, 42)
	b1, b2, b3 := MedianRatio(x, y, 42)
	if a1 != b1 || a2 != b2 || a3 != b3 {
		t.Fatalf("same seed, different results: (%v, %v, %v) (%v, %v, %v)", a1, a2, a3, b1, b2, b3)
	}
	_, c2, c3 := MedianRatio(x, y, 43)
	if c2 == a2 && c3 == a3 {
		t.Errorf("seeds 42 and 43 give the same interval")
	}
}

func TestHigherIsWorse(t *testing.T) {
	tests := []struct {
		unit  string
		extra []string
		want  bool
	}{
		{"sec/op", nil, true},
		{"ns/op", nil, true},
		{"B/op", nil, true},
		{"allocs/op", nil, true},
		{"MB/s", nil, false},
		{"B/s", nil, false},
		{"cache-misses/op", nil, false},
		{"cache-misses/op", []string{"cache-misses/op", "gc-pauses/op"}, true},
		{"gc-pauses/op", []string{"cache-misses/op", "gc-pauses/op"}, true},
		{"ops/s", []string{"cache-misses/op"}, false},
	}
	for _, tt := range tests {
		if got := HigherIsWorse(tt.unit, tt.extra); got != tt.want {
			t.Errorf("HigherIsWorse(%q, %q) = %v, want %v", tt.unit, tt.extra, got, tt.want)
		}
	}
}

func BenchmarkMedianRatio30(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := normals(r, 30, 10, 1), normals(r, 30, 11, 1)
	for b.Loop() {
		MedianRatio(x, y, 1)
	}
}
