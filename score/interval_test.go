package score

import (
	"math"
	"testing"
)

func TestClopperPearson(t *testing.T) {
	// Reference values: bisection on the binomial CDF (independent of
	// the Beta quantiles used here).
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 40, 0, 0.088097},
		{2, 40, 0.006114, 0.169197},
		{5, 40, 0.041860, 0.268033},
		{40, 40, 0.911903, 1},
		{0, 0, 0, 1},
	} {
		lo, hi := ClopperPearson(tc.k, tc.n, 0.95)
		if math.Abs(lo-tc.lo) > 2e-6 || math.Abs(hi-tc.hi) > 2e-6 {
			t.Errorf("ClopperPearson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}
