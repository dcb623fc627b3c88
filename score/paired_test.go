package score

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSignedRank checks exact values: n rounds all slower give 2^-n; one
// faster round of rank 1 among 5 gives P(W+ >= 14) = 2/32; ties share
// their mid-rank; rounds with a ratio of 1 are left out.
func TestSignedRank(t *testing.T) {
	ones := []float64{1, 1, 1, 1, 1}
	for _, tt := range []struct {
		name     string
		old, new []float64
		stat, p  float64
		n        int
	}{
		{"all slower", ones, []float64{1.1, 1.2, 1.3, 1.4, 1.5}, 1, 1.0 / 32, 5},
		{"all faster", ones, []float64{0.9, 0.8, 0.7, 0.6, 0.5}, 0, 1, 5},
		// ranks 1..5 by |log ratio|; the smallest is faster: W+ = 14 of 15,
		// reached by the all-positive pattern and the one with rank 1
		// negative: 2/32.
		{"smallest faster", ones, []float64{0.99, 1.2, 1.3, 1.4, 1.5}, 14.0 / 15, 2.0 / 32, 5},
		// two ratios of 1 left out: 3 rounds, all slower.
		{"equal rounds left out", ones, []float64{1, 1.2, 1, 1.4, 1.5}, 1, 1.0 / 8, 3},
		// |d| tied: ratios 2 and 1/2 share ranks 2 and 3 (doubled: 5
		// each), 1.5 has rank 1 (doubled 2): W+ doubled = 5 + 2 = 7 of 12.
		// Patterns with doubled sum >= 7: {2,5}, {2,5'}, {5,5'}, {2,5,5'}:
		// 4 of 8.
		{"tied ranks", []float64{1, 2, 2}, []float64{2, 1, 3}, 7.0 / 12, 4.0 / 8, 3},
		{"no rounds", nil, nil, 0, 1, 0},
		{"x/0 is the largest", []float64{0, 1, 1}, []float64{1, 1.1, 0.95}, 5.0 / 6, 2.0 / 8, 3},
	} {
		stat, p, n := SignedRank(tt.old, tt.new)
		if math.Abs(stat-tt.stat) > 1e-12 || math.Abs(p-tt.p) > 1e-12 || n != tt.n {
			t.Errorf("%s: SignedRank = %v, %v, %d; want %v, %v, %d", tt.name, stat, p, n, tt.stat, tt.p, tt.n)
		}
	}
}

// TestSignedRankEnumerated checks the exact p-value against every one of
// the 2^n sign patterns of random tied log ratios, and its smallest value.
func TestSignedRankEnumerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n := 1 + rng.IntN(10)
		old, mags := make([]float64, n), make([]float64, n)
		new := make([]float64, n)
		for i := range old {
			old[i] = 1
			mags[i] = float64(1 + rng.IntN(4)) // heavy ties
			new[i] = math.Exp(0.01 * mags[i])
			if rng.IntN(2) == 0 {
				new[i] = 1 / new[i]
			}
		}
		_, p, _ := SignedRank(old, new)
		ranks := doubledRanks(logRatios(old, new))
		w := 0
		for i := range new {
			if new[i] > 1 {
				w += ranks[i]
			}
		}
		ge := 0
		for mask := range 1 << n {
			s := 0
			for i := range n {
				if mask>>i&1 == 1 {
					s += ranks[i]
				}
			}
			if s >= w {
				ge++
			}
		}
		if want := float64(ge) / float64(int(1)<<n); math.Abs(p-want) > 1e-12 {
			t.Fatalf("trial %d (%v): p %v, enumeration %v", trial, new, p, want)
		}
		if got, want := signedRankMin(old, new), math.Pow(2, -float64(n)); got != want {
			t.Fatalf("trial %d: smallest p %v, want %v", trial, got, want)
		}
	}
}
