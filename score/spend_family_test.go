package score

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFamilySpend checks the family-wise false-kill rate of the default
// rule (KS) for 1, 3 and 10 independent tests of continuous and of tied
// data (about 100 ns/op in whole nanoseconds, as go test prints fast
// benchmarks; KS breaks the ties at random), and of the rule with -test
// mwu for 3 and 10 tests of continuous data and one of tied data: between
// 0.8 alpha and alpha, to two standard errors of the simulation
// (docs/statistics.md, "False kills under H0", has the figures of larger
// simulations).
func TestFamilySpend(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	continuous := func(rng *rand.Rand) float64 { return math.Exp(0.05 * rng.NormFloat64()) }
	tied := func(rng *rand.Rand) float64 { return math.Round(100 * math.Exp(0.05*rng.NormFloat64())) }
	for _, tt := range []struct {
		test         Test
		data         string
		draw         func(*rand.Rand) float64
		k, campaigns int
	}{
		{KS, "continuous", continuous, 1, 6000},
		{KS, "continuous", continuous, 3, 4000},
		{KS, "continuous", continuous, 10, 2000},
		{KS, "tied", tied, 1, 6000},
		{KS, "tied", tied, 3, 4000},
		{KS, "tied", tied, 10, 2000},
		{MWU, "continuous", continuous, 3, 3000},
		{MWU, "continuous", continuous, 10, 1500},
		{MWU, "tied", tied, 1, 4000}, // the tie-exact p-values are slow to count: one test
	} {
		r := Rule{Test: tt.test}.WithDefaults()
		rate := spendWith(r, tt.k, tt.campaigns, 11, tt.draw)
		se := math.Sqrt(r.Alpha * (1 - r.Alpha) / float64(tt.campaigns))
		t.Logf("%s, %s, %d tests: false-kill rate %.4f over %d campaigns (se %.4f)", tt.test, tt.data, tt.k, rate, tt.campaigns, se)
		if rate < 0.8*r.Alpha-2*se || rate > r.Alpha+2*se {
			t.Errorf("%s, %s, %d tests: family-wise false-kill rate %.4f, want within [0.8 alpha, alpha] +- 2 se = [%.4f, %.4f]",
				tt.test, tt.data, tt.k, rate, 0.8*r.Alpha-2*se, r.Alpha+2*se)
		}
	}
}
