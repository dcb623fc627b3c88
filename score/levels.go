package score

import "slices"

// A levelTable holds per-look levels calibrated by simulation for one test,
// alpha, look schedule and futility bound (bench/simrule writes
// levels_table.go): PerTest[K-1][k] is the level each test of a family of
// K tests is compared with at look k. For every K the levels were chosen
// so that one test's chance of ever rejecting under the permutation null
// on continuous data is as close to Alpha/K as the test's discrete
// p-values allow without exceeding it (see docs/statistics.md); they need
// not fall with K at every look, so a mutant's family is fixed for the
// whole sequence (see sequenceFamily). With a
// Futility bound the simulation would close the test for good (binding
// futility); the tables in use have 0: the test never closes, and the
// levels hold for any futility stop.
type levelTable struct {
	Test     Test
	Alpha    float64
	Futility float64
	Reps     int // the simulation's null replicates
	Looks    []int
	PerTest  [][]float64
	// Rates[K-1] is the simulated chance that one test of a family of K
	// ever rejects with the levels PerTest[K-1]: at most Alpha/K. The
	// family's K tests spend at most K times it; the counts get the rest
	// (see split).
	Rates []float64
	// Paid[c-1] are the levels of a family of one test beside c counts
	// paid for at the first look (see sequence.go): calibrated as row
	// K = 1 (its cap and futility bound) for a share of Alpha less c
	// times the first look's level of a full separation, which the late
	// counts then hold for those counts; PaidRates are their simulated
	// rates. Only where the search is exhaustive (KS).
	Paid      [][]float64
	PaidRates []float64
}

// calibration returns the calibrated levels of r's test, alpha and looks,
// or nil when there are none (then the looks share alpha by the union
// bound, see levels). They are calibrated without a futility stop, so they
// hold for any stop: the futility stop does not bind (a test with no
// plausible power at one look may still reject at a later one, see Decide).
func (r Rule) calibration() *levelTable {
	test := r.Test
	if test == "" {
		test = KS
	}
	looks := r.Looks()
	for i := range calibratedLevels {
		t := &calibratedLevels[i]
		if t.Test == test && t.Alpha == r.Alpha && slices.Equal(t.Looks, looks) && t.Futility == 0 {
			return t
		}
	}
	return nil
}

// calibrated reports whether r's levels are calibrated by simulation (the
// default looks of alpha 0.01, 0.05 or 0.1) rather than shared over the
// looks by the union bound.
func (r Rule) calibrated() bool { return r.WithDefaults().calibration() != nil }

// familyLevels returns the level each test of a family of k tests is compared
// with at each look of r.Looks(): calibrated when calibrated, else the
// union-bound share of each look divided by k (Bonferroni over the tests).
// With Correction None the family is a single test whatever k.
func (r Rule) familyLevels(k int) []float64 {
	r = r.WithDefaults()
	looks := r.Looks()
	out := make([]float64, len(looks))
	for i := range looks {
		out[i] = r.perTestLevel(i, k)
	}
	return out
}

// familyLevel is the level of each test of the mutant's family at a look
// (an index into r.Looks()) under its alpha split: the row of a family of
// one beside the paid counts, else that of a family of sp.k.
func (r Rule) familyLevel(look int, sp split) float64 {
	if sp.paid > 0 {
		return r.calibration().Paid[sp.paid-1][look]
	}
	return r.perTestLevel(look, sp.k)
}

// perTestLevel is familyLevels(k)[look] for a rule with its defaults.
func (r Rule) perTestLevel(look, k int) float64 {
	if r.Correction == None || k < 1 {
		k = 1
	}
	if t := r.calibration(); t != nil && k <= len(t.PerTest) {
		return t.PerTest[k-1][look]
	}
	return r.levels()[look] / float64(k)
}
