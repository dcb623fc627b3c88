package score

import (
	"fmt"
	"math"
)

// A Rule is the early-stopping rule: when the runner may stop sampling a
// mutant, and whether it is killed.
//
// Samples arrive in rounds (one baseline and one mutant sample per
// benchmark). The rule looks at the data only at the sample counts of
// Looks: MinSamples, then doubling, then MaxSamples (with the defaults 5, 10,
// 20, 30). At look k, with n_k samples each, it spends the share
//
//	alpha_k = Alpha * (n_k - n_{k-1}) / MaxSamples     (n_0 = 0)
//
// of Alpha: the linear alpha-spending function Alpha*n/MaxSamples, spent by
// Bonferroni over the looks. The mutant is killed at look k when one of its
// tests (benchmark x metric) has an adjusted p-value, after Correction over
// all of the mutant's tests, at most alpha_k (and, with MinEffect, a median
// ratio above MinEffect). The shares sum to Alpha, so by the union bound the
// probability of a false kill over all looks and all tests is at most
// Alpha, whatever the correlation between looks; with the defaults the
// shares are 0.0083, 0.0083, 0.0167, 0.0167. At MaxSamples the rule always
// decides: kill or survive.
//
// Zero fields take their defaults (see DefaultRule).
type Rule struct {
	Alpha      float64    // false-kill rate over all looks; default 0.05
	Correction Correction // over the mutant's tests; default Holm
	MaxSamples int        // samples each at the last look; default 30 (the paper's count)
	// MinSamples is the first look. The default is the smallest count at
	// which the first look can kill at all: 1/C(2n, n) <= Alpha*n/MaxSamples
	// (5 for Alpha 0.05 and MaxSamples 30, 6 for Alpha 0.01).
	MinSamples int
	// MinEffect, when above 0, makes a kill also need the median ratio
	// mutant/baseline of the rejecting test above it (e.g. 1.02), against
	// code-layout noise.
	MinEffect float64
	Seed      int64 // seeds the bootstrap intervals of the effect sizes
}

// Defaults of Rule.
const (
	DefaultAlpha      = 0.05
	DefaultMaxSamples = 30
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
	if r.MaxSamples == 0 {
		r.MaxSamples = DefaultMaxSamples
	}
	if r.MinSamples == 0 && r.Alpha > 0 && r.Alpha < 1 && r.MaxSamples > 0 {
		r.MinSamples = r.MaxSamples
		for n := 2; n < r.MaxSamples; n++ {
			if smallestP(n) <= r.Alpha*float64(n)/float64(r.MaxSamples) {
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
	case r.MinEffect != 0 && !(r.MinEffect >= 1 && !math.IsInf(r.MinEffect, 1)):
		return fmt.Errorf("-min-effect %v out of range: want 0 (off) or a ratio of at least 1, e.g. 1.02", r.MinEffect)
	}
	if _, err := ParseCorrection(string(r.Correction)); err != nil {
		return fmt.Errorf("-correction: %w", err)
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
			r.MaxSamples, r.Alpha, r.MaxSamples, smallestP(r.MaxSamples), r.levels()[len(r.Looks())-1], need)
	}
	return nil
}

// canKill reports whether some look can kill a mutant with a single test.
func (r Rule) canKill() bool {
	looks, levels := r.Looks(), r.levels()
	for k, n := range looks {
		if smallestP(n) <= levels[k] {
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
	var looks []int
	for n := max(r.MinSamples, 1); n < r.MaxSamples; n *= 2 {
		looks = append(looks, n)
	}
	return append(looks, r.MaxSamples)
}

// levels returns alpha_k, the share of Alpha spent at each look.
func (r Rule) levels() []float64 {
	r = r.WithDefaults()
	looks := r.Looks()
	levels := make([]float64, len(looks))
	prev := 0
	for k, n := range looks {
		levels[k] = r.Alpha * float64(n-prev) / float64(r.MaxSamples)
		prev = n
	}
	return levels
}
