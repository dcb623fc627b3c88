package score

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestDefaultRule(t *testing.T) {
	r := DefaultRule()
	want := Rule{Alpha: 0.05, Correction: Holm, Test: KS, MaxSamples: 30, MinSamples: 5, MinEffect: 1.01, FutilityPower: 0.1, Margin: 1.05}
	if r != want {
		t.Fatalf("DefaultRule() = %+v, want %+v", r, want)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := (Rule{}).Validate(); err != nil {
		t.Fatalf("zero Rule: %v", err)
	}
}

func TestLooks(t *testing.T) {
	tests := []struct {
		r      Rule
		looks  []int
		levels []float64
	}{
		{Rule{}, []int{5, 10, 20, 30}, []float64{0.025, 0.05 / 6, 0.05 / 6, 0.05 / 6}},
		// At alpha 0.01 five samples cannot kill with three tests
		// (3/252 > 0.01/2): start at 6.
		{Rule{Alpha: 0.01}, []int{6, 12, 24, 30}, []float64{0.005, 0.01 / 6, 0.01 / 6, 0.01 / 6}},
		// At alpha 0.1 four can (3/70 <= 0.1/2).
		{Rule{Alpha: 0.1}, []int{4, 8, 16, 30}, []float64{0.05, 0.1 / 6, 0.1 / 6, 0.1 / 6}},
		{Rule{MaxSamples: 10}, []int{5, 10}, []float64{0.025, 0.025}},
		// A single look spends all of alpha.
		{Rule{MinSamples: 30}, []int{30}, []float64{0.05}},
		{Rule{MaxSamples: 4}, []int{4}, []float64{0.05}},
		{Rule{MinSamples: 3, MaxSamples: 12}, []int{3, 6, 12}, []float64{0.025, 0.0125, 0.0125}},
	}
	for _, tt := range tests {
		if got := tt.r.Looks(); !slices.Equal(got, tt.looks) {
			t.Errorf("%+v.Looks() = %v, want %v", tt.r, got, tt.looks)
		}
		levels := tt.r.levels()
		sum := 0.0
		for k := range levels {
			sum += levels[k]
			if !close(levels[k], tt.levels[k]) {
				t.Errorf("%+v.levels() = %v, want %v", tt.r, levels, tt.levels)
				break
			}
		}
		if !close(sum, tt.r.WithDefaults().Alpha) {
			t.Errorf("%+v: levels sum to %v, not alpha", tt.r, sum)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		r   Rule
		err string
	}{
		{Rule{Alpha: 1.5}, "-alpha 1.5 out of range: want a level between 0 and 1, e.g. 0.05"},
		{Rule{Alpha: -0.05}, "-alpha -0.05 out of range: want a level between 0 and 1, e.g. 0.05"},
		{Rule{Alpha: math.NaN()}, "-alpha NaN out of range: want a level between 0 and 1, e.g. 0.05"},
		{Rule{MaxSamples: -3}, "-max-samples -3 out of range: want at least 1, e.g. 30"},
		{Rule{MinSamples: 40}, "min samples 40 out of range: want 1 to -max-samples (30)"},
		{Rule{MinEffect: 0.9}, "-min-effect 0.9 out of range: want a ratio of at least 1 (1 = off), e.g. 1.02"},
		{Rule{MinEffect: math.Inf(1)}, "-min-effect +Inf out of range: want a ratio of at least 1 (1 = off), e.g. 1.02"},
		{Rule{MinEffect: 1}, ""},
		{Rule{Test: "t"}, `-test: unknown test "t" (want ks or mwu)`},
		{Rule{Test: MWU}, ""},
		{Rule{Correction: "fdr"}, `-correction: unknown correction "fdr" (want none, bonferroni or holm)`},
		{Rule{MaxSamples: 2}, "-max-samples 2 can never kill at -alpha 0.05: with 2 samples each the smallest p-value is 0.167, above the last look's share 0.05 of alpha; use -max-samples 3 or more"},
		{Rule{MaxSamples: 4, Alpha: 0.01}, "-max-samples 4 can never kill at -alpha 0.01: with 4 samples each the smallest p-value is 0.0143, above the last look's share 0.01 of alpha; use -max-samples 5 or more"},
		{Rule{MaxSamples: 12, MinSamples: 12, Alpha: 0.001}, ""},
		{Rule{MaxSamples: 3}, ""}, // one look at 3: 1/20 <= 0.05
		{Rule{MaxSamples: 5}, ""},
		{Rule{MinEffect: 1.02, Correction: None, Alpha: 0.1, Seed: 7}, ""},
		{Rule{FutilityPower: 1}, "futility power 1 out of range: want below 1, e.g. 0.1, or negative for no futility stop"},
		{Rule{FutilityPower: NoFutility}, ""},
	}
	for _, tt := range tests {
		err := tt.r.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("%+v.Validate() = %q, want %q", tt.r, got, tt.err)
		}
	}
}

// TestValidateChange: a comparison with a minimum effect needs the 6
// rounds of the per-round ratios' interval to say same: -max-samples 3 to
// 5 can say slower but never same; without a minimum effect (an interval
// that contains 1) they can.
func TestValidateChange(t *testing.T) {
	if n := MinSameSamples(); n != 6 {
		t.Errorf("MinSameSamples() = %d, want 6", n)
	}
	for _, tt := range []struct {
		r   Rule
		err string
	}{
		{Rule{MaxSamples: 2, MinEffect: 1.05}, "-max-samples 2 can never kill at -alpha 0.05: with 2 samples each the smallest p-value is 0.167, above the last look's share 0.05 of alpha; use -max-samples 3 or more"},
		{Rule{MaxSamples: 3, MinEffect: 1.05}, "-max-samples 3 can never say same with -min-effect 1.05: the 95% interval of the per-round ratios NEW/OLD needs at least 6 rounds; use -max-samples 6 or more"},
		{Rule{MaxSamples: 5}, "-max-samples 5 can never say same with -min-effect 1.01: the 95% interval of the per-round ratios NEW/OLD needs at least 6 rounds; use -max-samples 6 or more"},
		// The paired test of the per-round ratios needs 2^-n <= alpha/2
		// for one metric's two directions: 6 rounds at alpha 0.05.
		{Rule{MaxSamples: 5, MinEffect: 1}, "-max-samples 5 can never find a change at -alpha 0.05: with 5 rounds the smallest p-value of the paired test is 0.0312, above the last look's share 0.025 of alpha for one metric's two directions; use -max-samples 6 or more"},
		{Rule{MaxSamples: 6, MinEffect: 1}, ""},
		{Rule{MaxSamples: 6, MinEffect: 1, Alpha: 0.01}, "-max-samples 6 can never find a change at -alpha 0.01: with 6 rounds the smallest p-value of the paired test is 0.0156, above the last look's share 0.005 of alpha for one metric's two directions; use -max-samples 9 or more"},
		{Rule{MaxSamples: 6, MinEffect: 1.05}, ""},
		{Rule{MinEffect: 1.05}, ""},
	} {
		got := ""
		if err := tt.r.ValidateChange(); err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("%+v.ValidateChange() = %q, want %q", tt.r, got, tt.err)
		}
	}
	// At 5 rounds no ratio interval is within the band; at 6, one can be.
	base := []float64{1, 1, 1, 1, 1, 1}
	mut := []float64{1.01, 0.99, 1.02, 0.98, 1.01, 1}
	if _, lo, hi := PairedRatio(base[:5], mut[:5]); WithinBand(lo, hi, 1.05) {
		t.Errorf("5 rounds: interval [%v, %v] within the band of 1.05", lo, hi)
	}
	if _, lo, hi := PairedRatio(base, mut); !WithinBand(lo, hi, 1.05) {
		t.Errorf("6 rounds: interval [%v, %v] not within the band of 1.05", lo, hi)
	}
}

// run feeds one round at a time to the rule, as the runner does, until it
// decides; draw(b, i) returns the next baseline (b) or mutant (!b) value of
// test i (names[i] is its benchmark, metrics[i] its metric, sec/op when
// metrics is nil). The bootstrap intervals, which do not enter the
// decision, are left out to keep the simulations fast.
func run(r Rule, names, metrics []string, draw func(baseline bool, test int) float64) (Verdict, int) {
	samples := make([]Sample, len(names))
	for i, name := range names {
		samples[i] = Sample{Benchmark: name, Metric: SecPerOp}
		if metrics != nil {
			samples[i].Metric = metrics[i]
		}
	}
	for n := 1; ; n++ {
		for i := range samples {
			samples[i].Baseline = append(samples[i].Baseline, draw(true, i))
			samples[i].Mutant = append(samples[i].Mutant, draw(false, i))
		}
		v := r.decide(samples, false)
		if v.Decision != Continue {
			return v, n
		}
		if n > 1000 {
			panic("no decision")
		}
	}
}

// noisy returns a draw function with lognormal noise of sd sigma, the
// mutant slowed by slow[bench].
func noisy(rng *rand.Rand, sigma float64, slow []float64) func(bool, int) float64 {
	return func(baseline bool, bench int) float64 {
		v := 1e-6 * float64(bench+1) * math.Exp(sigma*rng.NormFloat64())
		if !baseline {
			v *= slow[bench]
		}
		return v
	}
}

// demoLike returns the tests and a draw function of benchmarks whose
// metrics look like the demo module's: sec/op with lognormal noise sigma
// (the mutant slowed by slow), B/op a few bytes above 2337 with heavy ties
// (a per-op average that wobbles by a byte or two), and allocs/op a
// constant 181 on both sides.
func demoLike(rng *rand.Rand, benches int, sigma, slow float64) (names, metrics []string, draw func(bool, int) float64) {
	for b := range benches {
		for _, m := range []string{SecPerOp, BytesPerOp, AllocsPerOp} {
			names = append(names, fmt.Sprintf("Benchmark%c", 'A'+b))
			metrics = append(metrics, m)
		}
	}
	draw = func(baseline bool, i int) float64 {
		switch metrics[i] {
		case SecPerOp:
			v := 1e-6 * math.Exp(sigma*rng.NormFloat64())
			if !baseline {
				v *= slow
			}
			return v
		case BytesPerOp:
			return 2337 + math.Floor(rng.ExpFloat64()*0.8)
		}
		return 181
	}
	return names, metrics, draw
}

// aaCampaigns runs campaigns seeded A/A campaigns (mutant = baseline) of
// benches demo-like benchmarks (3 tests each) under r, spread over the
// CPUs (campaign c draws from its own generator, so the result does not
// depend on the spread), and returns the number of kills, the mean sample
// count, and the first error: a decision at a count that is not a look.
func aaCampaigns(r Rule, campaigns, benches int) (kills int, meanN float64, err string) {
	killed := make([]bool, campaigns)
	ns := make([]int, campaigns)
	errs := make([]string, campaigns)
	looks := r.Looks()
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for c := w; c < campaigns; c += workers {
				rng := rand.New(rand.NewPCG(11, uint64(c)))
				names, metrics, draw := demoLike(rng, benches, 0.03, 1)
				v, n := run(r, names, metrics, draw)
				killed[c], ns[c] = v.Decision == Kill, n
				if !slices.Contains(looks, n) || v.Look < 1 || looks[v.Look-1] != n {
					errs[c] = fmt.Sprintf("campaign %d decided %s at n = %d, look %d; looks are %v", c, v.Decision, n, v.Look, looks)
				}
				if v.Decision == Survive && v.Futility != (n < r.MaxSamples) {
					errs[c] = fmt.Sprintf("campaign %d survived at n = %d with futility %v", c, n, v.Futility)
				}
			}
		})
	}
	wg.Wait()
	total := 0
	for c := range campaigns {
		if errs[c] != "" && err == "" {
			err = errs[c]
		}
		if killed[c] {
			kills++
		}
		total += ns[c]
	}
	return kills, float64(total) / float64(campaigns), err
}

// TestDecideAA simulates 2000 A/A campaigns (mutant = baseline) of one and
// of three demo-like benchmarks each (sec/op, B/op with ties, constant
// allocs/op: Tarone's reduction leaves some tests out at some looks) under
// the default rule, and of three without the futility stop (every survivor then runs to
// the last look, the most chances to kill): the empirical false-kill rate
// must stay within alpha + 2 standard errors, every decision happens at a
// look, and with futility the mean sample count is well below MaxSamples.
func TestDecideAA(t *testing.T) {
	const campaigns = 2000
	for _, tt := range []struct {
		r       Rule
		benches int
		maxN    float64 // bound on the mean sample count
	}{
		// With the margin (x1.05) a survivor of sigma 0.03 (per-round
		// ratios of sd 0.042) needs its bounds below 1.05, spent over the
		// looks (survivorRanks): about half of them stop at 5 samples, most
		// of the others at 10 or 20.
		{DefaultRule(), 1, 16},
		{DefaultRule(), 3, 25},
		{Rule{Margin: NoMargin}.WithDefaults(), 1, 9.5},
		{Rule{Margin: NoMargin}.WithDefaults(), 3, 14},
		{Rule{FutilityPower: NoFutility}.WithDefaults(), 3, 30},
	} {
		r := tt.r
		kills, meanN, err := aaCampaigns(r, campaigns, tt.benches)
		if err != "" {
			t.Fatalf("futility %v: %s", r.FutilityPower, err)
		}
		rate := float64(kills) / campaigns
		se := math.Sqrt(r.Alpha * (1 - r.Alpha) / campaigns)
		t.Logf("%d benchmarks, futility power %v: A/A false-kill rate %.4f (%d of %d), bound %.4f; mean samples %.2f", tt.benches, r.FutilityPower, rate, kills, campaigns, r.Alpha+2*se, meanN)
		if rate > r.Alpha+2*se {
			t.Errorf("%d benchmarks, futility power %v: A/A false-kill rate %.4f > alpha + 2 se = %.4f", tt.benches, r.FutilityPower, rate, r.Alpha+2*se)
		}
		if meanN > tt.maxN {
			t.Errorf("%d benchmarks, futility power %v: A/A campaigns stop at a mean of %.2f samples, want at most %v", tt.benches, r.FutilityPower, meanN, tt.maxN)
		}
		if r.FutilityPower < 0 && meanN < float64(r.MaxSamples)*(1-2*r.Alpha) {
			t.Errorf("A/A campaigns stop at a mean of %.2f samples without the futility stop, want nearly %d", meanN, r.MaxSamples)
		}
	}
}

// TestSimulationDetectsPeeking checks that the A/A simulation can fail: a
// naive rule (test after every sample from 5 on, no correction) on the same
// campaigns exceeds alpha + 2 se by far.
func TestSimulationDetectsPeeking(t *testing.T) {
	const campaigns = 2000
	rng := rand.New(rand.NewPCG(11, 12))
	draw := noisy(rng, 0.03, []float64{1, 1, 1, 1})
	kills := 0
	for range campaigns {
		x, y := make([][]float64, 4), make([][]float64, 4)
	campaign:
		for n := 1; n <= 30; n++ {
			for b := range x {
				x[b] = append(x[b], draw(true, b))
				y[b] = append(y[b], draw(false, b))
			}
			if n < 5 {
				continue
			}
			for b := range x {
				if _, p := OneSidedKS(x[b], y[b]); p <= 0.05 {
					kills++
					break campaign
				}
			}
		}
	}
	rate := float64(kills) / campaigns
	t.Logf("naive false-kill rate %.4f (%d of %d)", rate, kills, campaigns)
	if bound := 0.05 + 2*math.Sqrt(0.05*0.95/campaigns); rate <= bound {
		t.Errorf("naive peeking false-kill rate %.4f within the bound %.4f: the simulation cannot tell", rate, bound)
	}
}

// TestDecideSlowdown simulates mutants 2x slower with 3% noise: each must be
// killed within 10 samples (the futility stop never gets in the way): at
// the first look with up to ten tests (the calibration spends 1/252 there
// for each of them), at the second with eleven (it spends nothing). With
// demo-like benchmarks of three metrics each, where Tarone's reduction
// leaves the constant allocs/op and often the tied B/op out: at the first
// look with one to three benchmarks, by the second with four.
func TestDecideSlowdown(t *testing.T) {
	r := DefaultRule()
	rng := rand.New(rand.NewPCG(21, 22))
	tests := []struct {
		names []string
		slow  []float64
		look  int
	}{
		{[]string{"BenchmarkA"}, []float64{2}, 1},
		{[]string{"BenchmarkA", "BenchmarkB", "BenchmarkC"}, []float64{1, 2, 1}, 1},
		{[]string{"BenchmarkA", "BenchmarkB", "BenchmarkC"}, []float64{2, 2, 2}, 1},
		{[]string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD"}, []float64{1, 2, 1, 1}, 1},
		{[]string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE", "BenchmarkF"}, []float64{1, 2, 1, 1, 1, 1}, 1},
		// Seven tests: the levels calibrated without futility spend nothing
		// at the first look on a family of seven.
		{[]string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE", "BenchmarkF", "BenchmarkG"}, []float64{1, 2, 1, 1, 1, 1, 1}, 2},
		{[]string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE", "BenchmarkF", "BenchmarkG", "BenchmarkH", "BenchmarkI", "BenchmarkJ", "BenchmarkK"}, []float64{1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 2},
	}
	for _, tt := range tests {
		for range 200 {
			v, n := run(r, tt.names, nil, noisy(rng, 0.03, tt.slow))
			if v.Decision != Kill || n > 10 || v.Look != tt.look {
				t.Fatalf("%v slowed %v: %s at n = %d look %d, want kill at look %d", tt.names, tt.slow, v.Decision, n, v.Look, tt.look)
			}
			// The slowed tests reject; an unslowed one may (d = 1 at n = 5
			// has probability 1/252 under no difference).
			for i, test := range v.Tests {
				if tt.slow[i] == 2 && !test.Reject {
					t.Fatalf("%v slowed %v: test %d does not reject", tt.names, tt.slow, i)
				}
			}
		}
	}
	for _, tt := range []struct{ benches, n int }{{1, 5}, {3, 5}, {4, 10}} {
		for range 200 {
			names, metrics, draw := demoLike(rng, tt.benches, 0.03, 2)
			v, n := run(r, names, metrics, draw)
			if v.Decision != Kill || n > tt.n {
				t.Fatalf("%d demo-like benchmarks, 2x slower: %s at n = %d, want kill by %d", tt.benches, v.Decision, n, tt.n)
			}
		}
	}
}

// power runs campaigns seeded campaigns of one demo-like benchmark slowed
// by slow with noise sigma under r and returns the fraction killed and the
// mean sample count.
func power(r Rule, campaigns int, sigma, slow float64) (float64, float64) {
	rng := rand.New(rand.NewPCG(51, uint64(1000*slow+1e6*sigma)))
	kills, total := 0, 0
	for range campaigns {
		names, metrics, draw := demoLike(rng, 1, sigma, slow)
		v, n := run(r, names, metrics, draw)
		if v.Decision == Kill {
			kills++
		}
		total += n
	}
	return float64(kills) / float64(campaigns), float64(total) / float64(campaigns)
}

// TestDecidePower simulates slowdowns of one demo-like benchmark (sec/op,
// tied B/op, constant allocs/op) under the default rule, without the
// futility stop, and with a fixed 30 samples (one look at alpha): a 5%
// slowdown with 1% noise must be killed in at least 90% of the campaigns
// with futility. The smaller effects are logged to document the power the
// futility stop costs (docs/statistics.md).
func TestDecidePower(t *testing.T) {
	const campaigns = 400
	rules := []struct {
		name string
		r    Rule
	}{
		{"default", DefaultRule()},
		{"no futility", Rule{FutilityPower: NoFutility}},
		{"fixed 30", Rule{MinSamples: 30}},
	}
	for _, e := range []struct{ sigma, slow float64 }{{0.01, 1.05}, {0.03, 1.03}, {0.03, 1.02}, {0.03, 1.01}} {
		line := fmt.Sprintf("%.0f%% slower, %.0f%% noise:", 100*(e.slow-1), 100*e.sigma)
		for _, rr := range rules {
			pw, meanN := power(rr.r, campaigns, e.sigma, e.slow)
			line += fmt.Sprintf(" %s %.3f (mean n %.1f);", rr.name, pw, meanN)
			if e.slow == 1.05 && rr.name == "default" && pw < 0.9 {
				t.Errorf("5%% slowdown with 1%% noise killed in %.3f of the campaigns, want >= 0.9", pw)
			}
		}
		t.Log(line)
	}
}

// TestDecideSurvivesAtMax checks that, without the futility stop, a mutant
// that is not slower runs to MaxSamples and survives, never continuing past
// it; and that with it, such a mutant survives early at a look.
func TestDecideSurvivesAtMax(t *testing.T) {
	for _, max := range []int{30, 12} {
		r := Rule{MaxSamples: max, FutilityPower: NoFutility}
		rng := rand.New(rand.NewPCG(31, 32))
		for range 100 {
			v, n := run(r, []string{"BenchmarkA", "BenchmarkB"}, nil, noisy(rng, 0.03, []float64{0.95, 0.95}))
			if v.Decision != Survive || n != max || v.Futility {
				t.Fatalf("max %d: %s at n = %d (futility %v), want survive at %d", max, v.Decision, n, v.Futility, max)
			}
		}
	}
	r := DefaultRule()
	rng := rand.New(rand.NewPCG(31, 32))
	for range 100 {
		v, n := run(r, []string{"BenchmarkA", "BenchmarkB"}, nil, noisy(rng, 0.03, []float64{0.95, 0.95}))
		// At 5 samples the margin needs all 5 per-round ratios of both
		// benchmarks at most 1.05 (each about 0.95 +- 0.042): 92% of the
		// time; nearly all others stop at 10.
		if v.Decision != Survive || n >= r.MaxSamples || !v.Futility || len(v.Warnings) != 1 || !strings.HasPrefix(v.Warnings[0], fmt.Sprintf("stopped early for futility at look %d (%d samples)", v.Look, n)) {
			t.Fatalf("5%% faster: %s at n = %d futility %v %q, want a futility stop before the last look", v.Decision, n, v.Futility, v.Warnings)
		}
	}
}

func TestDecideConstantMetrics(t *testing.T) {
	r := DefaultRule()
	five := func(v float64) []float64 { return []float64{v, v, v, v, v} }
	v := r.Decide([]Sample{
		{Benchmark: "BenchmarkX", Metric: BytesPerOp, Baseline: five(1024), Mutant: five(2048)},
	})
	if v.Decision != Kill || v.Look != 1 {
		t.Fatalf("constant B/op 1024 -> 2048: %+v", v)
	}
	got := v.Tests[0]
	want := TestResult{Benchmark: "BenchmarkX", Metric: BytesPerOp, D: 1, P: 1.0 / 252, PAdj: 1.0 / 252,
		Ratio: 2, RatioLo: 2, RatioHi: 2, NBaseline: 5, NMutant: 5, Reject: true, Threshold: r.familyLevels(1)[0], PMin: 1.0 / 252, Deterministic: true}
	if !equalResult(got, want) {
		t.Errorf("test = %+v\nwant   %+v", got, want)
	}

	// allocs/op 0 -> 1: the ratio is unbounded, kept JSON-safe, and kills.
	v = r.Decide([]Sample{{Benchmark: "BenchmarkX", Metric: AllocsPerOp, Baseline: five(0), Mutant: five(1)}})
	if v.Decision != Kill || v.Tests[0].Ratio != UnboundedRatio || len(v.Tests[0].Warnings) != 1 {
		t.Errorf("allocs 0 -> 1: %+v", v)
	}
	// Identical constants never kill: Tarone's reduction leaves them out of
	// the family, and out of the late counts' (alone, they have half of
	// alpha at the first look); with nothing left the mutant survives for
	// futility.
	v = r.Decide([]Sample{{Benchmark: "BenchmarkX", Metric: AllocsPerOp, Baseline: five(3), Mutant: five(3)}})
	want = TestResult{Benchmark: "BenchmarkX", Metric: AllocsPerOp, D: 0, P: 1, PAdj: 1, Ratio: 1, RatioLo: 1, RatioHi: 1,
		NBaseline: 5, NMutant: 5, Threshold: r.Alpha / 2, PMin: 1, Excluded: true,
		Warnings: []string{"cannot reject: the smallest p-value any split of these 5 and 5 values gives is 1 (every value is 3), above this look's level 0.025; left out of the holm correction (Tarone)"}}
	wantWarnings := []string{
		"look 1 (5 samples) cannot kill: no test can reach the level 0.00397 with these values",
		"stopped early for futility at look 1 (5 samples): the largest conditional power to reject by 30 samples is 0, below 0.1",
	}
	if v.Decision != Survive || !v.Futility || !equalResult(v.Tests[0], want) || !slices.Equal(v.Warnings, wantWarnings) {
		t.Errorf("allocs 3 -> 3: %+v", v)
	}
	// Without the futility stop it goes on.
	v = Rule{FutilityPower: NoFutility}.Decide([]Sample{{Benchmark: "BenchmarkX", Metric: AllocsPerOp, Baseline: five(3), Mutant: five(3)}})
	if v.Decision != Continue || v.Futility {
		t.Errorf("allocs 3 -> 3 without futility: %+v", v)
	}
}

func equalResult(a, b TestResult) bool {
	return a.Benchmark == b.Benchmark && a.Metric == b.Metric && close(a.D, b.D) && close(a.P, b.P) &&
		close(a.PAdj, b.PAdj) && close(a.Ratio, b.Ratio) && close(a.RatioLo, b.RatioLo) && close(a.RatioHi, b.RatioHi) &&
		a.NBaseline == b.NBaseline && a.NMutant == b.NMutant && a.Reject == b.Reject && close(a.Threshold, b.Threshold) &&
		a.BelowMinEffect == b.BelowMinEffect && a.Deterministic == b.Deterministic && close(a.PMin, b.PMin) && a.Excluded == b.Excluded && slices.Equal(a.Warnings, b.Warnings)
}

// TestDecideTable checks exact verdicts on fixed data: looks, thresholds,
// corrections, min-effect and warnings.
func TestDecideTable(t *testing.T) {
	seq := steps
	low, high := seq(100, 5), seq(200, 5) // d = 1, p = 1/252
	mid := []float64{100.5, 101.5, 102.5, 103.5, 104.5}
	mid2 := []float64{100.6, 101.6, 102.6, 103.6, 104.6}
	// shifted returns k tests of low against low shifted by 0.1 to 0.1k:
	// all values distinct (reachable p 1/252), p = 5/6.
	shifted := func(k int) []Sample {
		var ss []Sample
		for i := 1; i <= k; i++ {
			m := make([]float64, len(low))
			for j := range low {
				m[j] = low[j] + 0.1*float64(i)
			}
			ss = append(ss, Sample{Benchmark: fmt.Sprintf("S%d", i), Metric: SecPerOp, Baseline: low, Mutant: m})
		}
		return ss
	}
	tests := []struct {
		name     string
		r        Rule
		samples  []Sample
		decision Decision
		look     int
		pAdj     []float64
		reject   []bool
		warnings []string
	}{
		{"between looks", Rule{}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: seq(100, 4), Mutant: seq(200, 4)}},
			Continue, 0, []float64{1.0 / 70}, []bool{false}, nil},
		{"first look kills", Rule{}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: high}},
			Kill, 1, []float64{1.0 / 252}, []bool{true}, nil},
		{"tarone leaves out a test that cannot reach the level", Rule{}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: high}, {Benchmark: "B", Metric: BytesPerOp, Baseline: low, Mutant: low}},
			Kill, 1, []float64{1.0 / 252, 1}, []bool{true, false}, nil},
		{"holm over two tests: 2/252 <= 0.025", Rule{}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: high}, {Benchmark: "C", Metric: SecPerOp, Baseline: low, Mutant: mid}},
			Kill, 1, []float64{2.0 / 252, 5.0 / 6}, []bool{true, false}, nil},
		{"holm over three tests: 3/252 <= 0.025", Rule{}, []Sample{{Benchmark: "A", Metric: SecPerOp, Baseline: low, Mutant: high}, {Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: mid}, {Benchmark: "C", Metric: SecPerOp, Baseline: low, Mutant: mid2}},
			Kill, 1, []float64{3.0 / 252, 1, 1}, []bool{true, false, false}, nil},
		// The calibration spends nothing at the first look for a family of
		// eleven (1/252 is above half of alpha/11).
		{"eleven tests cannot kill at 5", Rule{}, append([]Sample{{Benchmark: "A", Metric: SecPerOp, Baseline: low, Mutant: high}}, shifted(10)...),
			Continue, 1, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []bool{false, false, false, false, false, false, false, false, false, false, false},
			[]string{"look 1 (5 samples) cannot kill: it spends no alpha on a family of 11 tests"}},
		{"six tests kill at 5", Rule{}, append([]Sample{{Benchmark: "A", Metric: SecPerOp, Baseline: low, Mutant: high}}, shifted(5)...),
			Kill, 1, []float64{6.0 / 252, 1, 1, 1, 1, 1}, []bool{true, false, false, false, false, false}, nil},
		{"no correction kills at 5", Rule{Correction: None}, []Sample{{Benchmark: "A", Metric: SecPerOp, Baseline: low, Mutant: high}, {Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: seq(1, 5)}, {Benchmark: "C", Metric: SecPerOp, Baseline: low, Mutant: seq(1, 5)}},
			Kill, 1, []float64{1.0 / 252, 1, 1}, []bool{true, false, false}, nil},
		{"bonferroni", Rule{Correction: Bonferroni}, []Sample{{Benchmark: "A", Metric: SecPerOp, Baseline: low, Mutant: high}, {Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: mid}},
			Kill, 1, []float64{2.0 / 252, 2 * 0.5}, []bool{true, false}, nil},
		// The median ratio 202/102 is below 2.5, and high/2.5 lies below
		// every baseline value (p = 1/252 <= 0.1 that the effect reaches
		// 2.5): the test is closed and the mutant stops for futility.
		{"min effect vetoes and stops", Rule{MinEffect: 2.5}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: high}},
			Survive, 1, []float64{1.0 / 252}, []bool{false},
			[]string{"stopped early for futility at look 1 (5 samples): the largest conditional power to reject by 30 samples is 0, below 0.1; 1 test is confidently below the minimum effect x2.5 (p <= 0.1)"}},
		{"min effect vetoes without futility", Rule{MinEffect: 2.5, FutilityPower: NoFutility}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: high}},
			Continue, 1, []float64{1.0 / 252}, []bool{false}, nil},
		// A count constant on each side, one more on the mutant's: a
		// deterministic increase kills whatever the level and the minimum
		// effect (181 -> 182 is x1.0055).
		{"deterministic count increase", Rule{MinEffect: 1.02}, []Sample{{Benchmark: "B", Metric: AllocsPerOp, Baseline: []float64{181, 181, 181, 181, 181}, Mutant: []float64{182, 182, 182, 182, 182}}},
			Kill, 1, []float64{1.0 / 252}, []bool{true}, nil},
		// A count that varies is tested like any metric (its ties kept):
		// the four 181s all in the baseline is 6 of the 252 splits, its
		// smallest p-value, above the first look's level for one test
		// (1/252: the first look kills only a full separation), so it is
		// out of the mutant's family, fixed at the first look. It is a late
		// count (see sequence.go): alone, with nothing in the family, the
		// late counts have all of alpha over the looks, half of it at the
		// first (0.025), which its p-value reaches: killed, not
		// deterministically.
		{"one varying count alone is a late count", Rule{}, []Sample{{Benchmark: "B", Metric: AllocsPerOp, Baseline: []float64{181, 181, 181, 181, 182}, Mutant: []float64{182, 182, 182, 182, 182}}},
			Kill, 1, []float64{6.0 / 252}, []bool{true}, nil},
		// Beside a time test the late counts have what its calibrated levels
		// leave (0.0029; 0.0015 at the first look): 6/252 cannot reject
		// there, but the count may later, so sampling goes on.
		{"one varying count beside a time test goes on", Rule{}, []Sample{{Benchmark: "B", Metric: AllocsPerOp, Baseline: []float64{181, 181, 181, 181, 182}, Mutant: []float64{182, 182, 182, 182, 182}}, {Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: mid}},
			Continue, 1, []float64{1, 5.0 / 6}, []bool{false, false}, nil},
		// A 0.5% slowdown, far above its noise: significant, but below the
		// default minimum effect 1.01, and mutant/1.01 lies below every
		// baseline value: it stops at the first look.
		{"0.5% slowdown on a quiet machine", Rule{}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: []float64{1000, 1000.1, 1000.2, 1000.3, 1000.4}, Mutant: []float64{1005, 1005.1, 1005.2, 1005.3, 1005.4}}},
			Survive, 1, []float64{1.0 / 252}, []bool{false},
			[]string{"stopped early for futility at look 1 (5 samples): the largest conditional power to reject by 30 samples is 0, below 0.1; 1 test is confidently below the minimum effect x1.01 (p <= 0.1)"}},
		{"0.5% slowdown without a minimum effect", Rule{MinEffect: 1}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: []float64{1000, 1000.1, 1000.2, 1000.3, 1000.4}, Mutant: []float64{1005, 1005.1, 1005.2, 1005.3, 1005.4}}},
			Kill, 1, []float64{1.0 / 252}, []bool{true}, nil},
		// U = 24 of 25: two of the 252 splits reach it.
		{"mwu kills at the first look", Rule{Test: MWU}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: []float64{103.5, 104.5, 200, 201, 202}}},
			Kill, 1, []float64{2.0 / 252}, []bool{true}, nil},
		{"min effect passes", Rule{MinEffect: 1.02}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: high}},
			Kill, 1, []float64{1.0 / 252}, []bool{true}, nil},
		{"max samples decides", Rule{MaxSamples: 5, MinSamples: 5}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: mid}},
			Survive, 1, []float64{5.0 / 6}, []bool{false}, nil},
		// A last look at 4 samples cannot rule out the margin (the largest
		// of 4 ratios is below their median with probability 1/16): a
		// mutant without a kill is undecided there, however many samples.
		{"past max samples decides", Rule{MaxSamples: 4, MinSamples: 2}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: mid}},
			Abstain, 2, []float64{5.0 / 6}, []bool{false}, []string{"undecided: the ratio could still be unbounded (upper bound of the median per-round ratio, 95% over the looks) on B sec/op after 5 samples; a median slowdown of x1.05 is not ruled out; more samples (-max-samples) would decide it: 5 rounds cannot rule out a slowdown at 95%"}},
		{"uneven samples look at the shortest", Rule{}, []Sample{{Benchmark: "A", Metric: SecPerOp, Baseline: low, Mutant: high}, {Benchmark: "B", Metric: SecPerOp, Baseline: seq(1, 6), Mutant: seq(0.1, 5)}},
			Kill, 1, []float64{2.0 / 252, 1}, []bool{true, false}, nil},
		{"no samples", Rule{}, nil, Survive, 0, nil, nil, []string{"no benchmark samples: nothing can kill the mutant"}},
		{"invalid rule", Rule{Alpha: 2}, []Sample{{Benchmark: "B", Metric: SecPerOp, Baseline: low, Mutant: high}}, Survive, 0, nil, nil,
			[]string{"invalid rule: -alpha 2 out of range: want a level between 0 and 1, e.g. 0.05"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.r.Decide(tt.samples)
			if v.Decision != tt.decision || v.Look != tt.look || !slices.Equal(v.Warnings, tt.warnings) {
				t.Fatalf("Decide = %s look %d warnings %q; want %s look %d warnings %q", v.Decision, v.Look, v.Warnings, tt.decision, tt.look, tt.warnings)
			}
			if len(v.Tests) != len(tt.pAdj) {
				t.Fatalf("%d tests, want %d", len(v.Tests), len(tt.pAdj))
			}
			for i, test := range v.Tests {
				if !close(test.PAdj, tt.pAdj[i]) || test.Reject != tt.reject[i] {
					t.Errorf("test %d: p_adj %v reject %v, want %v %v", i, test.PAdj, test.Reject, tt.pAdj[i], tt.reject[i])
				}
				if final := v.Decision != Continue; final != (test.RatioHi != 0) {
					t.Errorf("test %d: interval [%v, %v] with decision %s", i, test.RatioLo, test.RatioHi, v.Decision)
				}
			}
		})
	}
}

// TestDecideDeterministic checks that a verdict is a function of the rule
// (with its seed) and the data, and that Decide does not modify the data.
func TestDecideDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	s := []Sample{{Benchmark: "A", Metric: SecPerOp, Baseline: normals(rng, 30, 10, 1), Mutant: normals(rng, 30, 10.5, 1)}}
	keep := slices.Clone(s[0].Baseline)
	r := Rule{Seed: 5}
	a, b := r.Decide(s), r.Decide(s)
	if !equalResult(a.Tests[0], b.Tests[0]) || a.Decision != b.Decision {
		t.Fatalf("two calls differ: %+v %+v", a, b)
	}
	if !slices.Equal(keep, s[0].Baseline) {
		t.Fatal("Decide modified the samples")
	}
	c := Rule{Seed: 6}.Decide(s)
	if c.Tests[0].RatioLo == a.Tests[0].RatioLo && c.Tests[0].RatioHi == a.Tests[0].RatioHi {
		t.Errorf("seeds 5 and 6 give the same interval [%v, %v]", c.Tests[0].RatioLo, c.Tests[0].RatioHi)
	}
	if !strings.Contains(a.Tests[0].Metric, "sec/op") {
		t.Errorf("metric %q", a.Tests[0].Metric)
	}
}

func BenchmarkDecide30(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s []Sample
	for _, name := range []string{"A", "B", "C"} {
		s = append(s, Sample{Benchmark: name, Metric: SecPerOp, Baseline: normals(rng, 30, 10, 1), Mutant: normals(rng, 30, 10, 1)})
	}
	r := DefaultRule()
	for b.Loop() {
		r.Decide(s)
	}
}
