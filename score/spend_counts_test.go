package score

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// twoValued draws base, or base+1 with probability p.
func twoValued(rng *rand.Rand, base, p float64) float64 {
	if rng.Float64() < p {
		return base + 1
	}
	return base
}

// countsCampaigns runs A/A campaigns of benches benchmarks of sec/op (tied
// integer ns/op when tied, else continuous), B/op two-valued at pBytes and
// allocs/op at 30%, under the default rule at its looks with each
// campaign's seed mixed in as the runner mixes a mutant's ID; it returns
// the false-kill rate, the share of campaigns in which a late count
// (out of the family fixed at the first look) took part in a look's
// correction, and the share in which the late counts paid for a count at
// the first look (payCounts).
func countsCampaigns(benches int, tied bool, pBytes float64, campaigns int, seed uint64) (rate, joined, paid float64) {
	r := DefaultRule()
	kills, moved, paidFor := 0, 0, 0
	for c := range campaigns {
		rng := rand.New(rand.NewPCG(seed, uint64(c)))
		rc := r.ForMutant(strconv.Itoa(c))
		var samples []Sample
		for b := range benches {
			name := "Benchmark" + string(rune('A'+b))
			samples = append(samples, Sample{Benchmark: name, Metric: SecPerOp}, Sample{Benchmark: name, Metric: BytesPerOp}, Sample{Benchmark: name, Metric: AllocsPerOp})
		}
		draw := func(metric string) float64 {
			switch metric {
			case BytesPerOp:
				return twoValued(rng, 2337, pBytes)
			case AllocsPerOp:
				return twoValued(rng, 181, 0.3)
			}
			if tied {
				return math.Round(100 * math.Exp(0.05*rng.NormFloat64()))
			}
			return math.Exp(0.05 * rng.NormFloat64())
		}
		joinedHere := false
		for _, n := range r.Looks() {
			for i := range samples {
				for len(samples[i].Baseline) < n {
					samples[i].Baseline = append(samples[i].Baseline, draw(samples[i].Metric))
					samples[i].Mutant = append(samples[i].Mutant, draw(samples[i].Metric))
				}
			}
			v := rc.DecideWithoutIntervals(samples)
			seq, _, c := rc.sequenceFamily(samples)
			if c > 0 && n == r.Looks()[0] {
				paidFor++
			}
			for i, t := range v.Tests {
				if IsCount(t.Metric) && !seq[i] && !t.Excluded {
					joinedHere = true
				}
			}
			if v.Decision != Continue {
				if v.Decision == Kill {
					kills++
				}
				break
			}
		}
		if joinedHere {
			moved++
		}
	}
	return float64(kills) / float64(campaigns), float64(moved) / float64(campaigns), float64(paidFor) / float64(campaigns)
}

// TestFamilyWithLateCounts: the family-wise false-kill rate stays within
// [0.8 alpha, alpha] (to two standard errors) for families whose counts
// are often split 5/5 at the first look (B/op 50%: a quarter of the time)
// or vary more (allocs/op 30%), and which otherwise are late counts,
// joining a look's correction when their values allow (which must happen
// in a good share of the campaigns for the test to exercise it): one
// benchmark of continuous sec/op, one of tied integer ns/op, and two of
// tied. Beside one time test a count split 5/5 at the first look is paid
// for by the late counts (payCounts; in about a third of the campaigns of
// one benchmark, expected 0.32): in the family instead, it took row 2's
// share of alpha, and one benchmark of tied ns/op spent 0.0392 [0.0366,
// 0.0420] in simrule's family table (0.0453 here, 0.0438 with 20000
// campaigns), 0.0449 and 0.0489 with it; beside two time tests the counts
// stay in the family.
func TestFamilyWithLateCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const campaigns = 3000
	alpha := DefaultAlpha
	se := math.Sqrt(alpha * (1 - alpha) / campaigns)
	for _, tt := range []struct {
		name      string
		benches   int
		tied      bool
		paidLeast float64
	}{
		{"1 x (sec/op, B/op 50%, allocs/op 30%)", 1, false, 0.25},
		{"1 x (tied sec/op, B/op 50%, allocs/op 30%)", 1, true, 0.25},
		{"2 x (tied sec/op, B/op 50%, allocs/op 30%)", 2, true, 0},
	} {
		rate, joined, paid := countsCampaigns(tt.benches, tt.tied, 0.5, campaigns, 29)
		t.Logf("%s: false-kill rate %.4f over %d campaigns (se %.4f); a late count joined a look's correction in %.3f, counts paid for in %.3f", tt.name, rate, campaigns, se, joined, paid)
		if rate < 0.8*alpha-2*se || rate > alpha+2*se {
			t.Errorf("%s: family-wise false-kill rate %.4f, want within [0.8 alpha, alpha] +- 2 se = [%.4f, %.4f]", tt.name, rate, 0.8*alpha-2*se, alpha+2*se)
		}
		if joined < 0.1 {
			t.Errorf("%s: a late count joined in only %.3f of the campaigns, want at least 0.1", tt.name, joined)
		}
		if paid < tt.paidLeast || tt.benches > 1 && paid > 0 {
			t.Errorf("%s: counts paid for in %.3f of the campaigns, want at least %v (none beside two time tests)", tt.name, paid, tt.paidLeast)
		}
	}
}
