package score

// One family per mutant for the whole sequence of looks.
//
// The calibrated levels of a family of K tests (Levels) hold for a test
// that meets that family's levels at every look: each row of the table has
// its own shape over the looks (one spends at the first look, another
// nothing there and more later). A family recomputed at each look (Tarone's
// reduction on each look's reachable p-values) changes K between looks
// whenever a test that could not reach the level becomes able to (a
// two-valued B/op whose smallest p-value at 5 samples is 6/252 reaches one
// at 10): its tests then take their levels from two rows, and the
// family-wise rate exceeded alpha (8 sec/op + 4 such B/op: 0.062 at alpha
// 0.05). So the family is fixed once, at the reference look (the first at
// which some test could reject at all; the first look with the defaults):
// the tests that can reach that look's largest level there (Tarone), and
// every test whose rounds do not reach that look yet. K is their number at
// every look; a test out of the family can never reject (a deterministic
// count increase still kills). At each look a test of the family whose
// reachable p-value is above the look's level for K is left out of the
// correction at that look (Tarone within the fixed family: at most K
// tests remain). So every test meets the levels of one row: each spends
// at most about Alpha/K over all looks, and the family at most Alpha.

// refLook returns the index of the reference look: the first look at
// which a full separation of its samples (p = 1/C(2n, n)) reaches the
// largest per-test level of any family size up to tests, and that level
// (the last look and its level when none does).
func (r Rule) refLook(tests int) (look int, top float64) {
	looks := r.Looks()
	for k, n := range looks {
		top = 0
		for j := 1; j <= max(tests, 1); j++ {
			top = max(top, r.perTestLevel(k, j))
		}
		if top > 0 && smallestP(n) <= top {
			return k, top
		}
	}
	return len(looks) - 1, top
}

// sequenceFamily returns which samples are in the mutant's family for the
// whole sequence (see above), and whether each one's rounds have reached
// the reference look (a sample that has not is in; once it has, it may
// turn out not to be). With Correction None every test is in: each is
// compared with the level of one test.
func (r Rule) sequenceFamily(samples []Sample) (in, complete []bool) {
	look, top := r.refLook(len(samples))
	n := r.Looks()[look]
	in, complete = make([]bool, len(samples)), make([]bool, len(samples))
	for i, s := range samples {
		p := s.prefix(n)
		if min(len(p.Baseline), len(p.Mutant)) < n {
			in[i] = true
			continue
		}
		complete[i] = true
		ranked := r.ranked(p)
		in[i] = r.Correction == None || r.Test.ReachableP(ranked.Baseline, ranked.Mutant) <= top
	}
	return in, complete
}

// lookFamily is Tarone's reduction within the sequence's family at a look
// (an index into r.Looks()): K is the number of tests in the sequence's
// family, at least 1, and a test is in the look's family when it is in
// the sequence's and its reachable p-value (pmins) is at most the look's
// level for K. With Correction None every test is in and K is 1.
func (r Rule) lookFamily(seq []bool, pmins []float64, look int) (k int, in []bool) {
	in = make([]bool, len(pmins))
	if r.Correction == None {
		for i := range in {
			in[i] = true
		}
		return 1, in
	}
	k = max(count(seq), 1)
	level := r.perTestLevel(look, k)
	for i, q := range pmins {
		in[i] = seq[i] && q <= level
	}
	return k, in
}
