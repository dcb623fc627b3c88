package score

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
