package score

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPValueTies checks the tie-aware p-values against exact fractions
// from full enumeration of the splits (computed independently, with
// Python's fractions).
func TestPValueTies(t *testing.T) {
	tests := []struct {
		baseline, mutant []float64
		ks, mwu          float64
		u                float64
	}{
		{[]float64{1, 1, 1, 1, 1}, []float64{1, 2, 2, 2, 2}, 1.0 / 42, 1.0 / 42, 22.5},
		{[]float64{1, 2, 2, 3, 3}, []float64{2, 3, 3, 4, 4}, 47.0 / 126, 2.0 / 21, 20},
		{[]float64{10, 11, 11, 12}, []float64{11, 12, 12, 13, 13}, 1.0 / 6, 5.0 / 63, 17},
		{[]float64{5, 5, 6}, []float64{6, 7, 7}, 3.0 / 10, 1.0 / 10, 8.5},
		{[]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 1.0 / 252, 1.0 / 252, 25},
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 1, 7.0 / 10, 4.5},
	}
	for _, tt := range tests {
		if _, p := KS.PValue(tt.baseline, tt.mutant); !close(p, tt.ks) {
			t.Errorf("KS.PValue(%v, %v) = %v, want %v", tt.baseline, tt.mutant, p, tt.ks)
		}
		u, p := OneSidedMWU(tt.baseline, tt.mutant)
		if u != tt.u || !close(p, tt.mwu) {
			t.Errorf("OneSidedMWU(%v, %v) = (%v, %v), want (%v, %v)", tt.baseline, tt.mutant, u, p, tt.u, tt.mwu)
		}
		if d, _ := MWU.PValue(tt.baseline, tt.mutant); d != tt.u/float64(len(tt.baseline)*len(tt.mutant)) {
			t.Errorf("MWU.PValue statistic %v, want u/(n1 n2)", d)
		}
	}
}

// splits calls f with every split of pooled into n1 baseline values and
// the rest.
func splits(pooled []float64, n1 int, f func(b, m []float64)) {
	N := len(pooled)
	for mask := 0; mask < 1<<N; mask++ {
		var b, m []float64
		for i := range N {
			if mask&(1<<i) != 0 {
				b = append(b, pooled[i])
			} else {
				m = append(m, pooled[i])
			}
		}
		if len(b) == n1 {
			f(b, m)
		}
	}
}

// TestPermutationPValuesEnumerated checks the conditional KS and MWU
// p-values against enumeration of every split of random tied samples.
func TestPermutationPValuesEnumerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 150 {
		n1, n2 := 1+rng.IntN(6), 1+rng.IntN(6)
		levels := 1 + rng.IntN(5)
		draw := func(n int) []float64 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(rng.IntN(levels))
			}
			return xs
		}
		x, y := draw(n1), draw(n2)
		h := ksLattice(x, y)
		uObs, _ := mwuDoubled(x, y)
		var ksCount, mwuCount, total float64
		splits(append(append([]float64{}, x...), y...), n1, func(b, m []float64) {
			total++
			if ksLattice(b, m) >= h {
				ksCount++
			}
			if u, _ := mwuDoubled(b, m); u >= uObs {
				mwuCount++
			}
		})
		blocks, _ := tieBlocks(x, y)
		wantKS := ksCount / total
		if h <= 0 {
			wantKS = 1
		}
		if got := ksTiesExact(n1, n2, h, blocks); !close(got, wantKS) {
			t.Fatalf("ksTiesExact(%v, %v) = %v, enumeration gives %v", x, y, got, wantKS)
		}
		wantMWU := mwuCount / total
		if uObs <= 0 {
			wantMWU = 1
		}
		if _, got := OneSidedMWU(x, y); !close(got, wantMWU) {
			t.Fatalf("OneSidedMWU(%v, %v) = %v, enumeration gives %v", x, y, got, wantMWU)
		}
		if _, p := KS.PValue(x, y); p > wantKS*(1+1e-12) {
			t.Fatalf("KS.PValue(%v, %v) = %v above the conditional p-value %v", x, y, p, wantKS)
		}
	}
}

// TestMWUNoTies checks the Gaussian-binomial path against the block count
// (which does not assume distinct values) and the normal approximation
// against the exact value at a larger size.
func TestMWUNoTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 5, 13, 30} {
		x, y := make([]float64, n), make([]float64, n+1)
		for i := range x {
			x[i] = rng.Float64()
		}
		for i := range y {
			y[i] = rng.Float64() + 0.2
		}
		u2, blocks := mwuDoubled(x, y)
		_, p := OneSidedMWU(x, y)
		if want := mwuExact(n, n+1, u2, blocks); !close(p, want) {
			t.Errorf("n=%d: no-ties p %v, block count %v", n, p, want)
		}
		if n == 30 {
			if approx := mwuNormal(n, n+1, u2, blocks); math.Abs(approx-p) > 0.1*p {
				t.Errorf("n=30: normal approximation %v, exact %v", approx, p)
			}
		}
	}
	// 30 x 30, every mutant value above every baseline value.
	x, y := make([]float64, 30), make([]float64, 30)
	for i := range x {
		x[i], y[i] = float64(i), float64(100+i)
	}
	if _, p := OneSidedMWU(x, y); !close(p, smallestP(30)) {
		t.Errorf("separated 30 x 30: p = %v, want 1/C(60,30) = %v", p, smallestP(30))
	}
}

func BenchmarkMWUTies30(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, 30), make([]float64, 30)
	for i := range x {
		x[i], y[i] = float64(1000+rng.IntN(8)), float64(1002+rng.IntN(8))
	}
	for b.Loop() {
		OneSidedMWU(x, y)
	}
}
