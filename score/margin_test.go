package score

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestUpperRatio(t *testing.T) {
	ones := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 1
		}
		return xs
	}
	// ratios 1.01, 1.02, ..., 1.0n in a shuffled order
	ratios := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 1 + 0.01*float64((i*7)%n+1)
		}
		return xs
	}
	for _, tt := range []struct {
		name     string
		base, mu []float64
		k        int
		want     float64
	}{
		{"5 rounds: the largest", ones(5), ratios(5), 1, 1.05},
		{"rank 0: none", ones(4), ratios(4), 0, UnboundedRatio},
		{"10 rounds: the second largest", ones(10), ratios(10), 2, 1.09},
		{"20 rounds: the fourth largest", ones(20), ratios(20), 4, 1.17},
		{"30 rounds: the tenth largest", ones(30), ratios(30), 10, 1.21},
		{"rank above the rounds: no evidence yet", []float64{2, 2}, []float64{2, 2}, 3, UnboundedRatio},
		{"0/0 is 1", []float64{0, 0, 0, 0, 0}, []float64{0, 0, 0, 0, 0}, 1, 1},
		{"x/0 is unbounded", []float64{0, 1, 1, 1, 1}, []float64{1, 1, 1, 1, 1}, 1, UnboundedRatio},
		{"no rounds", nil, nil, 1, UnboundedRatio},
		{"the shorter side", ones(5), append(ratios(5), 9), 1, 1.05},
	} {
		if got := UpperRatio(tt.base, tt.mu, tt.k); got != tt.want && !(got-tt.want < 1e-12 && tt.want-got < 1e-12) {
			t.Errorf("%s: UpperRatio = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSignBound(t *testing.T) {
	for _, tt := range []struct{ n, want int }{{4, 0}, {5, 1}, {9, 2}, {10, 2}, {20, 6}, {30, 11}} {
		if got := signBound(tt.n, 0.05); got != tt.want {
			t.Errorf("signBound(%d, 0.05) = %d, want %d", tt.n, got, tt.want)
		}
	}
	// The two-sided 95% interval of PairedRatio is the 2.5% bound.
	for n := 1; n <= 40; n++ {
		if got, want := signBound(n, 0.025), signInterval(n); got != want {
			t.Errorf("signBound(%d, 0.025) = %d, signInterval = %d", n, got, want)
		}
	}
}

// marginCampaigns runs campaigns of benchmarks with lognormal noise sigma
// and the mutant slowed by slow under r, and counts their decisions and
// the look of each.
func marginCampaigns(r Rule, campaigns, benches int, sigma, slow float64, seed uint64) (decisions map[Decision]int, looks map[Decision][]int, warnings []string) {
	decisions, looks = map[Decision]int{}, map[Decision][]int{}
	names := make([]string, benches)
	slows := make([]float64, benches)
	for b := range names {
		names[b] = "Benchmark" + string(rune('A'+b))
		slows[b] = slow
	}
	for c := range campaigns {
		rng := rand.New(rand.NewPCG(seed, uint64(c)))
		v, _ := run(r, names, nil, noisy(rng, sigma, slows))
		decisions[v.Decision]++
		looks[v.Decision] = append(looks[v.Decision], v.Look)
		if v.Decision == Abstain {
			warnings = append(warnings, strings.Join(v.Warnings, "; "))
		}
	}
	return decisions, looks, warnings
}

// TestMarginNoiseIsUndecided: pure noise around ratio 1 with a wide spread
// (sigma 0.3: samples of one benchmark varying 2 to 3x) of two benchmarks
// is undecided at MaxSamples, with a warning saying how large the ratio
// could still be and what would decide it, and next to never survives:
// at most 1% (each benchmark's 95% bound falls below the margin with a
// chance of about 1/32 at the first look when, as here, the spread dwarfs
// the margin). The rule without the margin survives nearly all of them
// early.
func TestMarginNoiseIsUndecided(t *testing.T) {
	const campaigns = 300
	d, looks, warnings := marginCampaigns(DefaultRule(), campaigns, 2, 0.3, 1, 7)
	if d[Survive] > campaigns/100 {
		t.Errorf("pure noise of sigma 0.3: %d of %d survived, want at most 1%%", d[Survive], campaigns)
	}
	if d[Abstain] < campaigns*9/10 {
		t.Errorf("pure noise of sigma 0.3: %d of %d undecided (%v), want at least 90%%", d[Abstain], campaigns, d)
	}
	for _, l := range looks[Abstain] {
		if l != len(DefaultRule().Looks()) {
			t.Fatalf("undecided at look %d, want only at the last", l)
		}
	}
	for _, w := range warnings {
		if !strings.HasPrefix(w, "undecided: the ratio could still be x") || !strings.Contains(w, "(upper bound of the median per-round ratio, 95% over the looks) on Benchmark") ||
			!strings.Contains(w, "after 30 samples; a median slowdown of x1.05 is not ruled out") || !strings.HasSuffix(w, timeHint) {
			t.Fatalf("undecided warning %q", w)
		}
	}
	old, _, _ := marginCampaigns(Rule{Margin: NoMargin}, campaigns, 2, 0.3, 1, 7)
	if old[Survive] < campaigns*9/10 {
		t.Errorf("without the margin %d of %d survived, want most (the test must be able to fail)", old[Survive], campaigns)
	}
	t.Logf("sigma 0.3, A/A: with the margin %v, without %v", d, old)
}

// TestMarginTightSurvives: a 0.5% slowdown on a quiet machine (sigma
// 0.002), a tight interval below the minimum effect, survives at the first
// look or the second (the futility stop, not the margin, takes some to the
// second) with every bound at most the margin.
func TestMarginTightSurvives(t *testing.T) {
	names := []string{"BenchmarkA", "BenchmarkB"}
	for c := range 100 {
		rng := rand.New(rand.NewPCG(3, uint64(c)))
		v, n := run(DefaultRule(), names, nil, noisy(rng, 0.002, []float64{1.005, 1.005}))
		if v.Decision != Survive || n > 10 {
			t.Fatalf("campaign %d: %s at n = %d %q, want survive at 5 or 10", c, v.Decision, n, v.Warnings)
		}
		for _, tr := range v.Tests {
			if !(tr.Upper > 1 && tr.Upper <= 1.05) {
				t.Fatalf("campaign %d: %s's upper bound %v, want in (1, 1.05]", c, tr.Benchmark, tr.Upper)
			}
		}
	}
}

// TestMarginRealSlowdownNotSurvived: a real 8% slowdown with moderate
// noise (sigma 0.05) is not survived at the first look (at most 1% of
// campaigns: its 5 per-round ratios, about 1.08 +- 0.07, are all below
// 1.05 with probability 0.004); without the margin the rule survives
// several times more of them there.
func TestMarginRealSlowdownNotSurvived(t *testing.T) {
	const campaigns = 1000
	atFirst := func(r Rule) int {
		_, looks, _ := marginCampaigns(r, campaigns, 1, 0.05, 1.08, 9)
		n := 0
		for _, l := range looks[Survive] {
			if l == 1 {
				n++
			}
		}
		return n
	}
	got, old := atFirst(DefaultRule()), atFirst(Rule{Margin: NoMargin})
	t.Logf("+8%%, sigma 0.05: survived at the first look %d of %d with the margin, %d without", got, campaigns, old)
	if got > campaigns/100 {
		t.Errorf("+8%%, sigma 0.05: %d of %d survived at the first look, want at most 1%%", got, campaigns)
	}
	if old <= 3*got || old < campaigns/50 {
		t.Errorf("without the margin %d survived at the first look, want many more than %d (the test must be able to fail)", old, got)
	}
}

func TestValidateMargin(t *testing.T) {
	for _, tt := range []struct {
		r    Rule
		want string
	}{
		{Rule{Margin: 1.02, MinEffect: 1.05}, "-margin 1.02 out of range: want a ratio of at least -min-effect (1.05), e.g. 1.05, or 0 for the default"},
		{Rule{Margin: NoMargin}, ""},
		{Rule{Margin: 1.01}, ""},
	} {
		err := tt.r.Validate()
		if got := ""; err != nil {
			got = err.Error()
			if got != tt.want {
				t.Errorf("%+v: %q, want %q", tt.r, got, tt.want)
			}
		} else if tt.want != "" {
			t.Errorf("%+v: no error, want %q", tt.r, tt.want)
		}
	}
	if got := (Rule{MinEffect: 1.2}).WithDefaults().Margin; got != 1.2 {
		t.Errorf("default margin with -min-effect 1.2: %v, want 1.2", got)
	}
}

// TestSurvivorRanksFewRounds: below 5 rounds no rank reaches 95% (the
// largest of 4 ratios is below the median with probability 1/16), so a
// first look at 4 samples (alpha 0.1) survives no mutant, even when every
// round's ratio is the same: a few rounds are no evidence against a
// slowdown.
func TestSurvivorRanksFewRounds(t *testing.T) {
	r := Rule{Alpha: 0.1}.WithDefaults()
	if looks, ks := r.Looks(), r.survivorRanks(); looks[0] != 4 || ks[0] != 0 {
		t.Errorf("looks %v: ranks %v, want none at 4 samples", looks, ks)
	}
}
