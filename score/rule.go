package score

import (
	"fmt"
	"hash/fnv"
	"math"
)

// A Rule is the early-stopping rule: when the runner may stop sampling a
// mutant, and whether it is killed.
//
// Samples arrive in rounds (one baseline and one mutant sample per
// benchmark). The rule looks at the data only at the sample counts of
// Looks: MinSamples, then doubling, then MaxSamples (with the defaults 5, 10,
// 20, 30). The mutant's family is fixed at the first look: its tests
// (benchmark x metric) that can reach that look's level there (Tarone's
// reduction, see AdjustFamily and sequenceFamily), K of them. At look k
// each test of the family that can reach the level is compared with the
// look's level for a family of K (familyLevels), the same row at every look: the mutant is
// killed when one of them has an adjusted p-value (Correction over the
// family) at most K times that level, and, for a metric that is not a
// count (not B/op or allocs/op), a median ratio above MinEffect.
// Counts out of the family are late counts, tested at each look with the
// alpha the family's calibrated levels leave (see sequence.go); beside
// one time test, the counts that reach the first look's level are paid
// for by them, and the time test takes levels calibrated for one test
// beside them (payCounts).
//
// Spending alpha. For the default looks of alpha 0.01, 0.05 and 0.1 the
// levels are calibrated (calibrated): for every family size K they were
// chosen so that one test's chance of ever rejecting under the permutation
// null is as close to Alpha/K as its discrete p-values allow (for KS, by
// trying every combination of attainable levels, aiming at 0.97 Alpha/K);
// so the chance of a false kill over all looks and tests is at most about
// Alpha (Bonferroni over the tests; a kill needs only Holm's first step)
// and close to it for independent tests. The calibration is a simulation
// on continuous data; on tied data KS breaks the ties at random, which
// makes it exact again, and MWU's exact conditional p-values keep it
// close. The levels are calibrated without a futility stop, so they hold
// for any stop: the futility stop does not bind (a test without plausible
// power at one look may still reject at a later one). Other
// schedules share alpha by the union bound, half at the first look and the
// rest equally over the later ones:
//
//	alpha_1 = Alpha / 2,   alpha_k = Alpha / (2 (L-1))   for k > 1
//
// which can only be conservative.
//
// Counts (B/op, allocs/op) that are constant on both sides and larger on
// the mutant's are marked deterministic (TestResult.Deterministic), and
// tested as any count: a kill whatever the level would let a family of
// many two-valued counts exceed Alpha (docs/statistics.md).
//
// At a look before the last the mutant survives early (futility) when no
// test can plausibly kill: its conditional power to reject at the last
// look is below FutilityPower, or its effect is confidently below
// MinEffect (see Decide), and every time test's ratio is ruled out above
// Margin (else sampling goes on). The futility stop only turns would-be
// later kills into survivals, so it cannot raise the false-kill rate. At
// MaxSamples the rule always decides: kill, survive (every time ratio's
// upper bound below Margin, 95% over all the looks: survivorRanks) or
// abstain (undecided: the noise leaves a median slowdown of Margin
// possible).
//
// Zero fields take their defaults (see DefaultRule). A report carries the
// Rule it was decided with: the json tags are its keys in report.json's
// settings, and the setting tags say how resume, merge and -since compare
// each field (see results.Settings).
type Rule struct {
	Alpha      float64    `json:"alpha" setting:"-alpha"`           // false-kill rate over all looks; default 0.05
	Correction Correction `json:"correction" setting:"-correction"` // over the mutant's tests; default Holm
	// Test is the two-sample test of each benchmark and metric; default KS
	// ("" in reports before the choice: KS).
	Test       Test `json:"test,omitempty" setting:"-test"`
	MaxSamples int  `json:"max_samples" setting:"-max-samples"` // samples each at the last look; default 30 (the paper's count)
	// MinEffect is the minimum effect: a test of a metric other than B/op
	// and allocs/op (time, custom units) kills only when the median ratio
	// mutant/baseline is above it, against code-layout noise. 0 means the
	// default, DefaultMinEffect; 1 turns it off (any significant increase
	// kills). Counts are exempt: their increases are real.
	MinEffect float64 `json:"min_effect,omitempty" setting:"-min-effect"`
	// Margin is the smallest slowdown a survivor must rule out: the mutant
	// survives only when, for every test of a metric that is not a count
	// (time, instructions and custom units) and of every count that is not
	// constant on each side without an increase, the upper bound of its
	// median per-round ratio mutant/baseline (UpperRatio at the look's
	// rank, 95% over all the looks together: survivorRanks) is below
	// Margin. At a
	// look before the last the futility stop needs it too (else sampling
	// goes on); at MaxSamples without a kill and without it the rule
	// abstains (the mutant is undecided). 0 means the default: the larger
	// of DefaultMargin and MinEffect; NoMargin (negative) turns it off
	// (survive without that evidence, as before). It must be at least
	// MinEffect.
	Margin float64 `json:"margin,omitempty" setting:"-margin"`
	// MinSamples is the first look. The default is the smallest count at
	// which the first look can kill with the three metrics of one
	// benchmark (sec/op, B/op, allocs/op) in the family: 3/C(2n, n) <=
	// Alpha/2 (5 for Alpha 0.05 and MaxSamples 30, 6 for Alpha 0.01, 4 for
	// 0.1); MaxSamples (a single look) if no smaller count can.
	MinSamples int `json:"min_samples,omitempty" setting:"-min-samples"`
	// FutilityPower is the futility bound: at a look before the last, the
	// mutant survives when every test's conditional power (under the
	// current trend) to reject at the last look is below it. 0 means the
	// default, DefaultFutilityPower; a negative value turns the futility
	// stop off (every survivor then runs to MaxSamples).
	FutilityPower float64 `json:"futility_power,omitempty" setting:"-futility"`
	// Seed seeds the tie-breaking and the bootstrap intervals (see
	// ForMutant). It is the campaign's -seed: a report keeps it once, as
	// the seed of its mutant choice, not here.
	Seed int64 `json:"-"`
}

// Defaults of Rule.
const (
	DefaultAlpha      = 0.05
	DefaultMaxSamples = 30
	// DefaultFutilityPower is the default Rule.FutilityPower.
	DefaultFutilityPower = 0.1
	// DefaultMinEffect is the default Rule.MinEffect: a kill on time needs
	// the mutant's median 1% above the baseline's (docs/statistics.md has
	// the A/A figures behind it; perfmut calibrate suggests one for a
	// machine).
	DefaultMinEffect = 1.01
	// NoFutility as Rule.FutilityPower turns the futility stop off.
	NoFutility = -1
	// DefaultMargin is the default Rule.Margin (when MinEffect is below
	// it): a survivor's benchmarks rule out a 5% slowdown with 95%
	// confidence (docs/statistics.md has the simulations behind it).
	DefaultMargin = 1.05
	// NoMargin as Rule.Margin turns the margin off: survive without
	// evidence that the slowdown is below a margin.
	NoMargin = -1
)

// DefaultRule returns the rule with every default filled in.
func DefaultRule() Rule { return Rule{}.WithDefaults() }

// WithDefaults returns r with its zero fields set to their defaults, as
// Decide uses it (MinSamples included), for recording the rule a run used.
func (r Rule) WithDefaults() Rule {
	if r.Alpha == 0 {
		r.Alpha = DefaultAlpha
	}
	if r.Correction == "" {
		r.Correction = Holm
	}
	if r.Test == "" {
		r.Test = KS
	}
	if r.MinEffect == 0 {
		r.MinEffect = DefaultMinEffect
	}
	if r.MaxSamples == 0 {
		r.MaxSamples = DefaultMaxSamples
	}
	if r.FutilityPower == 0 {
		r.FutilityPower = DefaultFutilityPower
	}
	if r.Margin == 0 {
		r.Margin = max(DefaultMargin, r.MinEffect)
	}
	if r.MinSamples == 0 && r.Alpha > 0 && r.Alpha < 1 && r.MaxSamples > 0 {
		r.MinSamples = r.MaxSamples
		for n := 2; n < r.MaxSamples; n++ {
			if 3*smallestP(n) <= r.Alpha/2 {
				r.MinSamples = n
				break
			}
		}
	}
	return r
}

// Validate reports the first problem with the rule (after defaults) as one
// line naming the CLI flag: a value out of range, or a schedule under which
// no look could ever kill.
func (r Rule) Validate() error {
	orig := r
	r = r.WithDefaults()
	switch {
	case !(r.Alpha > 0 && r.Alpha < 1):
		return fmt.Errorf("-alpha %v out of range: want a level between 0 and 1, e.g. 0.05", r.Alpha)
	case r.MaxSamples < 1:
		return fmt.Errorf("-max-samples %d out of range: want at least 1, e.g. 30", r.MaxSamples)
	case r.MinSamples < 1 || r.MinSamples > r.MaxSamples:
		return fmt.Errorf("min samples %d out of range: want 1 to -max-samples (%d)", r.MinSamples, r.MaxSamples)
	case !(r.MinEffect >= 1 && !math.IsInf(r.MinEffect, 1)):
		return fmt.Errorf("-min-effect %v out of range: want a ratio of at least 1 (1 = off), e.g. 1.02", r.MinEffect)
	case r.Margin > 0 && !(r.Margin >= r.MinEffect && !math.IsInf(r.Margin, 1)):
		return fmt.Errorf("-margin %v out of range: want a ratio of at least -min-effect (%v), e.g. %v, or 0 for the default", r.Margin, r.MinEffect, max(DefaultMargin, r.MinEffect))
	case !(r.FutilityPower < 1):
		return fmt.Errorf("futility power %v out of range: want below 1, e.g. 0.1, or negative for no futility stop", r.FutilityPower)
	}
	if _, err := ParseCorrection(string(r.Correction)); err != nil {
		return fmt.Errorf("-correction: %w", err)
	}
	if _, err := ParseTest(string(r.Test)); err != nil {
		return fmt.Errorf("-test: %w", err)
	}
	if !r.canKill() {
		need := r.MaxSamples + 1
		for ; need < 1000; need++ {
			s := orig
			s.MaxSamples = need
			if s.MinSamples > need {
				s.MinSamples = 0
			}
			if s.WithDefaults().canKill() {
				break
			}
		}
		return fmt.Errorf("-max-samples %d can never kill at -alpha %v: with %d samples each the smallest p-value is %.3g, above the last look's share %.3g of alpha; use -max-samples %d or more",
			r.MaxSamples, r.Alpha, r.MaxSamples, smallestP(r.MaxSamples), r.perTestLevel(len(r.Looks())-1, 1), need)
	}
	return nil
}

// ValidateChange is Validate for a comparison (DecideChange): with a
// minimum effect (above 1) the rule must also be able to say Same of a
// time, which needs the 95% interval of the per-round ratios (PairedRatio)
// within the band at the last look, so at least MinSameSamples rounds; and
// some look must be able to find a change with the paired test.
func (r Rule) ValidateChange() error {
	if err := r.Validate(); err != nil {
		return err
	}
	if r = r.WithDefaults(); r.MinEffect > 1 && r.MaxSamples < MinSameSamples() {
		return fmt.Errorf("-max-samples %d can never say same with -min-effect %v: the 95%% interval of the per-round ratios NEW/OLD needs at least %d rounds; use -max-samples %d or more",
			r.MaxSamples, r.MinEffect, MinSameSamples(), MinSameSamples())
	}
	if !r.pairedCanChange() {
		need := r.MaxSamples + 1
		for ; need < 1000; need++ {
			s := r
			s.MaxSamples, s.MinSamples = need, 0
			if s.WithDefaults().pairedCanChange() {
				break
			}
		}
		last := len(r.pairedLooks()) - 1
		return fmt.Errorf("-max-samples %d can never find a change at -alpha %.3g: with %d rounds the smallest p-value of the paired test is %.3g, above the last look's share %.3g of alpha for one metric's two directions; use -max-samples %d or more",
			r.MaxSamples, r.Alpha, r.MaxSamples, math.Pow(2, -float64(r.MaxSamples)), r.pairedLevels()[last]/2, need)
	}
	return nil
}

// pairedCanChange reports whether some look of DecideChange can find a
// change of one metric (a family of its two directions): 2^-n at most
// half the look's share.
func (r Rule) pairedCanChange() bool {
	levels := r.pairedLevels()
	for k, n := range r.pairedLooks() {
		if math.Pow(2, -float64(n)) <= levels[k]/2 {
			return true
		}
	}
	return false
}

// MinSameSamples is the fewest rounds that give the per-round ratios a 95%
// interval (PairedRatio): 6, the smallest n with 2 / 2^n <= 0.05.
func MinSameSamples() int {
	n := 1
	for signInterval(n) == 0 {
		n++
	}
	return n
}

// canKill reports whether some look can kill a mutant with a single test.
func (r Rule) canKill() bool {
	for k, n := range r.Looks() {
		if smallestP(n) <= r.perTestLevel(k, 1) {
			return true
		}
	}
	return false
}

// Looks returns the sample counts (each of baseline and mutant) at which the
// rule looks at the data: MinSamples, doubling while below MaxSamples, and
// MaxSamples. With the defaults: 5, 10, 20, 30.
func (r Rule) Looks() []int {
	r = r.WithDefaults()
	if r.MaxSamples < 1 {
		return nil
	}
	return looks(r.MinSamples, r.MaxSamples)
}

// looks returns first, doubling while below last, and last.
func looks(first, last int) []int {
	var ns []int
	for n := max(first, 1); n < last; n *= 2 {
		ns = append(ns, n)
	}
	return append(ns, last)
}

// levels returns alpha_k, the union-bound share of Alpha spent at each
// look: half at the first, the other half equally over the later ones (all
// of it with a single look). Uncalibrated rules use it (see Levels).
func (r Rule) levels() []float64 {
	r = r.WithDefaults()
	looks := r.Looks()
	levels := make([]float64, len(looks))
	levels[0] = r.Alpha
	if len(looks) > 1 {
		levels[0] = r.Alpha / 2
		for k := 1; k < len(looks); k++ {
			levels[k] = r.Alpha / 2 / float64(len(looks)-1)
		}
	}
	return levels
}

// ForMutant returns r with its Seed mixed with the mutant's identity (its
// ID and level), so that the tie-breaking and bootstrap streams differ
// between mutants measured on the same benchmark and change with -seed.
func (r Rule) ForMutant(id string) Rule {
	h := fnv.New64a()
	h.Write([]byte(id))
	r.Seed = int64(splitmix(uint64(r.Seed) ^ splitmix(h.Sum64())))
	return r
}
