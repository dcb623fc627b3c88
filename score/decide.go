package score

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"github.com/perfmut/perfmut/internal/english"
)

// A Sample is every sample so far of one benchmark and metric of a mutant:
// the baseline's and the mutant's values, in the order they were measured.
type Sample struct {
	Benchmark string
	Metric    string
	Baseline  []float64
	Mutant    []float64
	// Missing lists, in increasing order, the rounds (0-based) of the
	// benchmark in which the metric has no value on either side: a
	// censored mutant sample has only the time, and a custom metric may be
	// reported only sometimes. Baseline and Mutant hold the values of the
	// other rounds, in order. The rule counts rounds, not values (Rounds).
	Missing []int
}

// Rounds is the number of rounds of s's benchmark so far: the values of
// its shorter side and the rounds it misses.
func (s Sample) Rounds() int { return min(len(s.Baseline), len(s.Mutant)) + len(s.Missing) }

// prefix returns s as it was after its first n rounds.
func (s Sample) prefix(n int) Sample {
	miss := 0
	for miss < len(s.Missing) && s.Missing[miss] < n {
		miss++
	}
	keep := max(n-miss, 0)
	s.Baseline = s.Baseline[:min(keep, len(s.Baseline))]
	s.Mutant = s.Mutant[:min(keep, len(s.Mutant))]
	s.Missing = s.Missing[:miss]
	return s
}

// A Decision is what the early-stopping rule says after a round.
type Decision string

// The decisions.
const (
	Continue Decision = "continue" // take another round of samples
	Kill     Decision = "kill"     // a test rejected: the mutant is killed
	Survive  Decision = "survive"  // the data rule out the slowdown that matters: the mutant survived
	// Abstain: the budget is spent without a kill, and the data do not rule
	// out the slowdown that matters (Rule.Margin): the mutant is undecided.
	Abstain Decision = "abstain"
)

// A Verdict is the rule's decision with the tests behind it.
type Verdict struct {
	Decision Decision
	// Tests has one result per Sample, in the order given, on all the data
	// so far. Reject and Threshold are set only at a look, and the bootstrap
	// interval of the median ratio (RatioLo, RatioHi) only with a Kill or
	// Survive decision: it is the costly part and only final verdicts are
	// recorded.
	Tests []TestResult
	// Look is the 1-based index into Rule.Looks of the look this call made,
	// or 0 between looks.
	Look int
	// Futility is set when the look stopped the mutant as survived before
	// MaxSamples because no test could plausibly reach its level (see
	// Rule.FutilityPower).
	Futility bool
	// Reason says why the rule abstained (Decision Abstain, the mutant
	// undecided): which slowdown the data leave open and what would decide
	// it; empty otherwise. Warnings carry it too, as "undecided: " and the
	// reason.
	Reason   string
	Warnings []string
}

// Decide applies the rule to all samples so far of one mutant (one Sample
// per benchmark and metric that reaches it). The runner calls it after every
// round; it never stores state, so it must see every look count of
// Rule.Looks: the look happens when the fewest rounds of any sample
// (Sample.Rounds) equals a look count, and at MaxSamples or beyond it
// always returns Kill, Survive or Abstain, never Continue. Between looks it returns
// Continue, with the tests computed on the data so far for display (PAdj
// then is Correction over all the tests, without Tarone's reduction).
//
// KS tests a metric that is not a count with its ties broken at random
// (seeded by Seed; see breakTies), so that the levels calibrated on
// continuous data hold on discretized timings too; the median ratio is
// always that of the recorded values.
//
// The mutant's family is fixed for the whole sequence at the first look
// (see sequenceFamily): the tests whose smallest reachable p-value given
// their pooled values there (Test.ReachableP) is at most that look's
// largest level L of any family size, and those whose rounds do not reach
// it yet; K is their number at every look, so each test meets the levels
// of one row of the calibrated table. At look k, with L(K) the look's
// level for each test of a family of K (Rule.familyLevels), the tests of the
// family whose reachable p-value is above L(K) are left out of the
// correction at this look (Tarone), and every test out of the family at
// all but the counts; both are marked Excluded, with a warning. The
// counts out of the family (late counts) are a family of their own at each look with the alpha the family's levels
// leave (see sequence.go). Each remaining test's adjusted p-value
// (Correction over its family of F tests at this look) is compared with
// Threshold = F times its level (L(K), or the late counts' level; L(1)
// with None); a test rejects when it is at most that and, for a metric
// that is not a count, its median ratio exceeds MinEffect, or when it is
// a deterministic increase (a count constant on both sides, larger on the
// mutant's). The mutant is killed when any test rejects.
//
// A mutant survives only when the data rule out a median slowdown of
// Margin: every test of a metric that is not a count has an upper bound
// of its median per-round ratio (UpperRatio at the look's rank, 95% over
// all the looks together: survivorRanks; recorded as Upper, never below
// the test's Ratio) below Margin, and every count that is not constant without an
// increase has its own bound within it. Without a kill at MaxSamples it
// survives with that evidence and abstains without it (Reason and a
// warning give the largest bound and what would decide it). Otherwise, at a look before the last, it survives
// early (futility) when the margin is ruled out and no test can plausibly
// kill: each has a conditional power below
// FutilityPower, the chance, if the effect goes on as observed (the
// p-value read as a z-score), of reaching the last look's level for a
// family of the tests whose values are not all equal; or, for a metric
// that is not a count, its effect is confidently below MinEffect (the
// rule's test of "mutant/MinEffect is stochastically smaller than the
// baseline" has a p-value of at most FutilityPower).
//
// Samples of unequal length are tested on all their values. A sample that
// misses rounds (Sample.Missing) is tested on the values it has, at the
// look its rounds reach, with that look's level and in that look's family
// (Tarone's reduction leaves it out while its fewer values cannot reach
// the level). So a missing round neither takes a look again (the look is
// the rounds', each count is reached once) nor removes the metric from
// the decision. The false-kill rate: a p-value of m values is valid at
// any m, so each look of such a test rejects under the null with at most
// its level; the levels' calibration over the looks assumes the full
// rounds, but the rule differs from the calibrated one only when a round
// is missing. With the runner's censoring that needs a mutant sample
// slower than CensorFactor times the slowest baseline sample, which the
// null (mutant = baseline) almost never gives; so the false-kill rate is
// at most Alpha plus the chance of a censored round under the null.
// Decide assumes
// r.Validate() == nil; for an invalid rule it returns Survive with the error
// as a warning, and with no samples at all it returns Survive (nothing can
// kill the mutant).
func (r Rule) Decide(samples []Sample) Verdict { return r.decide(samples, true) }

// DecideWithoutIntervals is Decide without the bootstrap intervals of the
// median ratios (RatioLo, RatioHi stay 0): they do not enter the decision,
// and simulations of the rule skip their cost.
func (r Rule) DecideWithoutIntervals(samples []Sample) Verdict { return r.decide(samples, false) }

// decide is Decide, with the bootstrap intervals only when interval is set.
func (r Rule) decide(samples []Sample, interval bool) Verdict {
	if err := r.Validate(); err != nil {
		return Verdict{Decision: Survive, Warnings: []string{"invalid rule: " + err.Error()}}
	}
	r = r.WithDefaults()
	if len(samples) == 0 {
		return Verdict{Decision: Survive, Warnings: []string{"no benchmark samples: nothing can kill the mutant"}}
	}
	n := math.MaxInt
	tests := make([]TestResult, len(samples))
	ps, pmins := make([]float64, len(samples)), make([]float64, len(samples))
	for i, s := range samples {
		n = min(n, s.Rounds())
		ranked := r.ranked(s)
		tests[i] = comparePoint(s, ranked, r.Test)
		ps[i] = tests[i].P
		pmins[i] = r.Test.ReachableP(ranked.Baseline, ranked.Mutant)
		tests[i].PMin = pmins[i]
	}
	v := Verdict{Decision: Continue, Tests: tests, Look: r.lookAt(n) + 1}
	final := n >= r.MaxSamples
	if v.Look == 0 {
		for i, p := range Adjust(ps, r.Correction) {
			tests[i].PAdj = p
		}
		return v
	}
	look := v.Look - 1
	seq, _, paid := r.sequenceFamily(samples)
	sp := r.split(count(seq), paid)
	plan := r.planLook(samples, seq, ps, pmins, look, sp)
	rl, _ := r.refLook()
	for i := range tests {
		t := &tests[i]
		t.PAdj, t.Excluded, t.Threshold = plan.adj[i], !plan.in[i], plan.threshold[i]
		// A deterministic increase is tested like any other count: killing
		// on it whatever the level would spend, in a large family, more
		// than the family's alpha (docs/statistics.md).
		t.Deterministic = r.deterministicIncrease(samples[i])
		t.BelowMinEffect = !IsCount(t.Metric) && r.MinEffect > 1 && !(t.Ratio > r.MinEffect)
		t.Reject = t.PAdj <= t.Threshold && !t.BelowMinEffect && !t.Excluded
		if t.Reject {
			v.Decision = Kill
		}
		if w := r.cannotReject(*t, samples[i], plan.level[i], rl); w != "" {
			t.Warnings = append(t.Warnings, w)
		}
	}
	if plan.size == 0 && v.Decision != Kill {
		v.Warnings = append(v.Warnings, cannotKill(v.Look, n, r.familyLevel(look, sp), pmins))
	}
	switch {
	case v.Decision == Continue && final:
		v.Decision = Survive
		if ok, why, hint := r.ruledOut(samples, tests, look, n); !ok {
			v.Decision, v.Reason = Abstain, why+"; "+hint
			v.Warnings = append(v.Warnings, UndecidedPrefix+v.Reason)
		}
	case v.Decision == Continue && r.FutilityPower > 0:
		r.futilityStop(&v, samples, ps, seq, n, sp)
	}
	if v.Decision != Continue && interval {
		for i, s := range samples {
			tests[i].addInterval(s, testSeed(r.Seed, s.Benchmark, s.Metric))
		}
	}
	return v
}

// cannotKill says why a look (1-based, at n samples) with no test in its
// family cannot kill: it spends nothing on a family of this size, or no
// test's values can reach its per-test level.
func cannotKill(look, n int, perTest float64, pmins []float64) string {
	if perTest == 0 {
		kv := 0
		for _, q := range pmins {
			if q < 1 {
				kv++
			}
		}
		return fmt.Sprintf("look %d (%d samples) cannot kill: it spends no alpha on a family of %d tests", look, n, kv)
	}
	return fmt.Sprintf("look %d (%d samples) cannot kill: no test can reach the level %.3g with these values", look, n, perTest)
}

// cannotReject says why test t of sample s cannot reject at a look of
// per-test level perTest ("" if it can): its values cannot reach the
// level, or it is out of the mutant's family, fixed at the reference look
// rl (an index into Looks).
func (r Rule) cannotReject(t TestResult, s Sample, perTest float64, rl int) string {
	switch {
	case t.Excluded && t.PMin > perTest:
		return fmt.Sprintf("cannot reject: the smallest p-value any split of these %d and %d values gives is %.3g (%s), above this look's level %.3g; left out of the %s correction (Tarone)", t.NBaseline, t.NMutant, t.PMin, tieNote(s), perTest, r.Correction)
	case t.Excluded:
		return fmt.Sprintf("cannot reject: not in this mutant's family, fixed at look %d, where its values could not reach the level (Tarone)", rl+1)
	case t.PMin > perTest:
		return fmt.Sprintf("cannot reject: the smallest p-value any split of these %d and %d values gives is %.3g, above this look's level %.3g", t.NBaseline, t.NMutant, t.PMin, perTest)
	}
	return ""
}

// futilityStop stops v's mutant as survived at a look before the last
// when no test of its family (seq) can plausibly kill any more (confidently
// below the minimum effect, or a conditional power below FutilityPower)
// and the margin is ruled out; with no plausible kill but the margin not
// ruled out it only says why sampling goes on. sp is the mutant's alpha
// split. A late count (lateCounts) may join its family at any look: it
// keeps the mutant open while it can plausibly kill.
//
// The stop does not bind: a test without plausible power at this look is
// not closed, and may reject at a later look if sampling goes on (the
// margin not ruled out). The levels are calibrated without futility
// (calibration), so they hold whatever stops the sampling; a binding
// closure would have to end the mutant there, and a mutant whose first
// look was noisy would then never be killed however clear its later looks.
func (r Rule) futilityStop(v *Verdict, samples []Sample, ps []float64, seq []bool, n int, sp split) {
	late := r.lateCounts(samples, seq)
	cps, below := r.futility(samples, ps, n, sp, late)
	best, open := 0.0, 0
	for i := range samples {
		// A test out of the mutant's family can never reject: it does not
		// keep the mutant open, whatever its power.
		if !below[i] && (seq[i] || late[i]) {
			best = max(best, cps[i])
			if cps[i] >= r.FutilityPower {
				open++
			}
		}
	}
	if open > 0 {
		return
	}
	if ok, why, _ := r.ruledOut(samples, v.Tests, v.Look-1, n); !ok {
		v.Warnings = append(v.Warnings, fmt.Sprintf("no test can plausibly kill at look %d (%d samples), but %s: sampling goes on", v.Look, n, why))
		return
	}
	v.Decision, v.Futility = Survive, true
	msg := fmt.Sprintf("stopped early for futility at look %d (%d samples): the largest conditional power to reject by %d samples is %.2g, below %.2g", v.Look, n, r.MaxSamples, best, r.FutilityPower)
	if nb := count(below); nb > 0 {
		msg += fmt.Sprintf("; %d %s confidently below the minimum effect x%g (p <= %g)", nb, english.Choose(nb, "test is", "tests are"), r.MinEffect, r.FutilityPower)
	}
	v.Warnings = append(v.Warnings, msg)
}

// futility returns, for each test at a look after n of r.MaxSamples
// samples, its conditional power to reject at the last look (ps are the
// tests' p-values), and whether it is confidently below the minimum effect
// (a metric that is not a count, with a MinEffect above 1; see
// belowMinEffect). The conditional power of a time test is computed
// against Alpha/k, the per-test share of the mutant's family of sp.k tests
// (its size for the whole sequence, see sequenceFamily; 1 with Correction
// None), or beside paid counts Alpha less their reserve (Rule.share): the
// calibrated levels of that family assume it (see Rule); that
// of a count, if it is a late count, against their budget over the number
// of counts. A test whose
// values are all equal has p = 1 and no power.
func (r Rule) futility(samples []Sample, ps []float64, n int, sp split, late []bool) (cps []float64, below []bool) {
	ref := r.share(sp)
	counts := 0
	for _, s := range samples {
		if IsCount(s.Metric) {
			counts++
		}
	}
	cref := sp.budget / float64(max(counts, 1))
	t := float64(n) / float64(r.MaxSamples)
	cps, below = make([]float64, len(samples)), make([]bool, len(samples))
	for i, s := range samples {
		cps[i] = ConditionalPower(ps[i], t, ref)
		if late[i] {
			cps[i] = ConditionalPower(ps[i], t, cref)
		}
		below[i] = !IsCount(s.Metric) && r.MinEffect > 1 && r.belowMinEffect(s)
	}
	return cps, below
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// belowMinEffect reports whether the sample's mutant is confidently below
// r.MinEffect times the baseline: the rule's test of "baseline is
// stochastically larger than mutant/MinEffect" has a p-value of at most
// r.FutilityPower.
func (r Rule) belowMinEffect(s Sample) bool {
	scaled := make([]float64, len(s.Mutant))
	for i, y := range s.Mutant {
		scaled[i] = y / r.MinEffect
	}
	_, p := r.Test.PValue(scaled, s.Baseline)
	return p <= r.FutilityPower
}

// deterministicIncrease reports whether s is a count (B/op, allocs/op)
// that is constant on each side and larger on the mutant's, with at least
// the first look's count of values on each side (at most the default first
// look's for the rule's alpha, 5 at 0.05, for a rule that looks later): a
// real increase, not noise. Fewer values (rounds censored or missing) are
// not evidence that a count is constant: one value a side would make any
// wobble "deterministic".
func (r Rule) deterministicIncrease(s Sample) bool {
	n := min(r.Looks()[0], Rule{Alpha: r.Alpha, MaxSamples: r.MaxSamples}.WithDefaults().MinSamples)
	if !IsCount(s.Metric) || len(s.Baseline) < n || len(s.Mutant) < n {
		return false
	}
	return constantSides(s) && s.Mutant[0] > s.Baseline[0]
}

// constantSides reports whether each side of s holds one value only (and
// has some).
func constantSides(s Sample) bool {
	for _, xs := range [][]float64{s.Baseline, s.Mutant} {
		for _, x := range xs {
			if x != xs[0] {
				return false
			}
		}
	}
	return len(s.Baseline) > 0 && len(s.Mutant) > 0
}

// tieNote describes why a test's smallest reachable p-value is large.
func tieNote(s Sample) string {
	first := math.NaN()
	for _, xs := range [][]float64{s.Baseline, s.Mutant} {
		for _, x := range xs {
			if math.IsNaN(first) {
				first = x
			} else if x != first {
				return "ties among the pooled values"
			}
		}
	}
	return fmt.Sprintf("every value is %v", first)
}

// ranked returns s as the rule's test sees it: with ties broken at random
// for a test that asks for it (TwoSample.BreakTies: KS; see breakTies);
// MWU's p-value is exact given the ties.
func (r Rule) ranked(s Sample) Sample {
	if !r.Test.def().BreakTies {
		return s
	}
	return breakTies(s, r.Seed)
}

// comparePoint runs the rule's test on ranked (s as r.ranked gives it) and
// the effect size of s, without the bootstrap interval (addInterval adds it): D, P, the
// median ratio and the sample sizes. PAdj is P (a family of one); Reject is
// false. Ratios that do not fit JSON (a baseline median of 0) are recorded
// as +-UnboundedRatio, or 0 for no ratio at all, with a warning.
func comparePoint(s, ranked Sample, test Test) TestResult {
	t := TestResult{
		Benchmark: s.Benchmark,
		Metric:    s.Metric,
		NBaseline: len(s.Baseline),
		NMutant:   len(s.Mutant),
	}
	t.D, t.P = test.PValue(ranked.Baseline, ranked.Mutant)
	t.PAdj = t.P
	if len(s.Missing) > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("no value in %d of %d rounds: tested on the values of the others", len(s.Missing), s.Rounds()))
	}
	if t.NBaseline == 0 || t.NMutant == 0 {
		t.Warnings = append(t.Warnings, "no samples")
		return t
	}
	x, y := slices.Clone(s.Baseline), slices.Clone(s.Mutant)
	slices.Sort(x)
	slices.Sort(y)
	t.Ratio = medianRatio(median(x), median(y))
	if math.IsInf(t.Ratio, 0) {
		t.Warnings = append(t.Warnings, "baseline median is 0: the median ratio is unbounded")
	}
	t.Ratio = jsonSafe(t.Ratio)
	return t
}

// addInterval sets the bootstrap interval of the median ratio.
func (t *TestResult) addInterval(s Sample, seed int64) {
	if t.NBaseline == 0 || t.NMutant == 0 {
		return
	}
	_, lo, hi := MedianRatio(s.Baseline, s.Mutant, seed)
	if (math.IsInf(lo, 0) || math.IsInf(hi, 0)) && math.Abs(t.Ratio) != UnboundedRatio {
		t.Warnings = append(t.Warnings, "baseline median is 0 in some bootstrap resamples: the interval is unbounded")
	}
	t.RatioLo, t.RatioHi = jsonSafe(lo), jsonSafe(hi)
}

// UnboundedRatio is the Ratio, RatioLo or RatioHi recorded for an
// unbounded median ratio (a baseline median of 0, e.g. 0 allocs/op, against
// a positive mutant median): JSON has no infinity. Renderers should show it
// as "inf"; it exceeds any MinEffect.
const UnboundedRatio = math.MaxFloat64

// jsonSafe maps +-Inf to +-UnboundedRatio and NaN to 0: encoding/json
// rejects both.
func jsonSafe(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case math.IsInf(x, 1):
		return UnboundedRatio
	case math.IsInf(x, -1):
		return -UnboundedRatio
	}
	return x
}

// testSeed derives the seed of one test's tie-breaking and bootstrap
// from the rule's seed (mixed with the mutant's identity by ForMutant)
// and the test's name, so each test's streams are reproducible on their
// own: SplitMix64 of the seed and a SplitMix64 of the name's hash, so
// that neighbouring seeds (-seed 1, 2) and names give unrelated streams
// (an xor of the two left a small seed's streams nearly the same).
func testSeed(seed int64, benchmark, metric string) int64 {
	h := fnv.New64a()
	h.Write([]byte(benchmark))
	h.Write([]byte{0})
	h.Write([]byte(metric))
	return int64(splitmix(uint64(seed) ^ splitmix(h.Sum64())))
}
