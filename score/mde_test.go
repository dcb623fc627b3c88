package score

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMinDetectable(t *testing.T) {
	// A baseline whose log values have a MAD of 0.05/1.4826: a robust
	// sigma of 0.05.
	d := 0.05 / 1.4826
	base := []float64{math.Exp(-d), 1, math.Exp(d), math.Exp(-d), math.Exp(d)}
	// z(0.95) + z(0.8) = 1.644854 + 0.841621 = 2.486475.
	for _, tt := range []struct {
		test Test
		are  float64
	}{{KS, 2 / math.Pi}, {MWU, 3 / math.Pi}} {
		want := math.Exp(2.486475 * 0.05 * math.Sqrt(2.0/30) / math.Sqrt(tt.are))
		if got := MinDetectable(base, 30, 0.05, tt.test); math.Abs(got-want) > 1e-6 {
			t.Errorf("%s: MinDetectable = %v, want %v", tt.test, got, want)
		}
	}
	if got := MinDetectable([]float64{7, 7, 7}, 5, 0.05, KS); got != 1 {
		t.Errorf("constant baseline: %v, want 1", got)
	}
	if got := MinDetectable([]float64{1, 0}, 5, 0.05, KS); !math.IsNaN(got) {
		t.Errorf("zero value: %v, want NaN", got)
	}
}

// TestMinDetectablePower checks the approximation: a fixed design of n
// samples at the level, on lognormal data slowed by the MDE, is killed in
// about DetectPower of the campaigns.
func TestMinDetectablePower(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const sigma, n, level, campaigns = 0.05, 20, 0.05, 1500
	noise := make([]float64, 4000)
	for i := range noise {
		noise[i] = math.Exp(sigma * rng.NormFloat64())
	}
	for _, test := range []Test{KS, MWU} {
		mde := MinDetectable(noise, n, level, test)
		kills := 0
		x, y := make([]float64, n), make([]float64, n)
		for range campaigns {
			for i := range n {
				x[i] = math.Exp(sigma * rng.NormFloat64())
				y[i] = mde * math.Exp(sigma*rng.NormFloat64())
			}
			if _, p := test.PValue(x, y); p <= level {
				kills++
			}
		}
		pw := float64(kills) / campaigns
		t.Logf("%s: MDE %.4f at n=%d, simulated power %.3f", test, mde, n, pw)
		if pw < 0.7 || pw > 0.9 {
			t.Errorf("%s: power at the MDE %.4f is %.3f, want about %v", test, mde, pw, DetectPower)
		}
	}
}
