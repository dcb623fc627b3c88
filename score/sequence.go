package score

import (
	"math"
	"slices"
)

// One family per mutant for the whole sequence of looks, and the late
// counts beside it.
//
// The calibrated levels of a family of K tests (familyLevels) hold for a test
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
// every look; a test out of the family that is not a count can never
// reject. At each look a test of the family whose reachable
// p-value is above the look's level for K is left out of the correction at
// that look (Tarone within the fixed family: at most K tests remain). So
// every test of the family meets the levels of one row and spends at most
// the row's simulated rate (levelTable.Rates), about Alpha/K.
//
// A count (B/op, allocs/op) out of the family is not lost: its values may
// vary later (a count constant at the first look, or two-valued with too
// few of its larger value there to reach the level). Such late counts are
// a family of their own with what the family's calibrated levels leave of
// alpha (split: Alpha less the simulated rate of the family's K tests,
// the calibrated row K; about 0.003 of 0.05 beside one test, 0.0016 to
// 0.003 beside 2 to 30), shared over the looks by the union bound (half at
// the first, the rest equally), and at each look Tarone's reduction takes
// those whose values can reach their share there. A union bound needs no
// family fixed in advance, so a late count joins at the look its values
// allow. Rules without calibrated levels leave no budget: their late
// counts cannot reject (but a deterministic increase).
//
// Beside one time test the counts that reach the reference look's level
// are paid for by the late counts (payCounts): out of the family, the
// time test takes the levels calibrated for one test with Alpha less that
// level per count (levelTable.Paid), and the late counts' budget holds it
// for them at the reference look, where a deterministic increase (1/252
// under the null for a two-valued count split 5/5) is then within the
// late counts' level. Else a count that is a deterministic increase at
// the reference look is in the family.

// refFamilies is the range of family sizes whose levels decide the
// reference look: those of the calibrated tables.
const refFamilies = 30

// refLook returns the index of the reference look: the first look at
// which a full separation of its samples (p = 1/C(2n, n)) reaches the
// largest per-test level of any family size (up to refFamilies, so that
// it does not depend on how many tests a caller passes: DecideAhead and
// Decide agree), and that level (the last look and its level when none
// does).
func (r Rule) refLook() (look int, top float64) {
	looks := r.Looks()
	for k, n := range looks {
		top = 0
		for j := 1; j <= refFamilies; j++ {
			top = max(top, r.perTestLevel(k, j))
		}
		if top > 0 && smallestP(n) <= top {
			return k, top
		}
	}
	return len(looks) - 1, top
}

// sequenceFamily returns which samples are in the mutant's family for the
// whole sequence (see above), whether each one's rounds have reached
// the reference look (a sample that has not is in; once it has, it may
// turn out not to be), and how many counts the late counts pay for (see
// payCounts; they are out). With Correction None every test is in: each
// is compared with the level of one test.
func (r Rule) sequenceFamily(samples []Sample) (in, complete []bool, paid int) {
	look, top := r.refLook()
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
	return in, complete, r.payCounts(samples, in, complete, look)
}

// payCounts moves the counts of a family of one test and c counts to the
// late counts, and returns c, when the calibration has levels for one
// test beside c paid counts (levelTable.Paid) and every test's rounds
// have reached the reference look (an index into r.Looks(), the first):
// else it returns 0 and the family stays as it is.
//
// Why: a count in the family takes a full share of alpha (row K = 2 or 3
// beside one time test) that a count barely varying hardly spends: its
// values reach the first look's level only as a full separation (a
// two-valued B/op split 5/5 reaches 1/252, as a deterministic increase)
// and seldom later. A mutant of one benchmark whose counts did so spent
// 0.039 of 0.05. Paid for, the count spends at most the first look's
// level there (the late counts' level at that look holds it for each
// paid count, see countLevel), and the late counts' share of what is
// left after; the time test takes the levels calibrated for Alpha less
// that (0.042 of 0.05 beside one count) instead of row 2 (0.024). Which
// counts are paid depends on the pooled values of the reference look
// only, as the family does (Tarone), so the levels hold.
func (r Rule) payCounts(samples []Sample, in, complete []bool, look int) int {
	t := r.calibration()
	if r.Correction == None || t == nil || look != 0 {
		return 0
	}
	tests, counts := 0, 0
	for i, s := range samples {
		switch {
		case !complete[i]:
			return 0
		case in[i] && IsCount(s.Metric):
			counts++
		case in[i]:
			tests++
		}
	}
	if _, top := r.refLook(); tests != 1 || counts == 0 || counts > len(t.Paid) ||
		r.Alpha-withError(t.PaidRates[counts-1], t.Reps) < float64(counts)*top {
		return 0
	}
	for i, s := range samples {
		if IsCount(s.Metric) {
			in[i] = false
		}
	}
	return counts
}

// A split is a mutant's alpha between its family (fixed at the reference
// look) and its late counts (see above): the family's tests take the
// levels of a family of k (perTestLevel), or with paid counts those of
// one test beside them (familyLevel); the late counts share budget over
// the looks (countLevel), of which reserve is held at the reference look
// for the paid counts.
type split struct {
	k               int
	budget, reserve float64
	paid            int
}

// split returns the alpha split of a mutant whose family has k tests and
// paid counts (see payCounts): the budget of the late counts is what the
// family's calibrated levels leave of Alpha (withError), none for rules
// without calibrated levels or with Correction None (every test is then
// in the family).
func (r Rule) split(k, paid int) split {
	if r.Correction == None {
		return split{k: 1}
	}
	if k == 0 {
		return split{k: 1, budget: r.Alpha}
	}
	t := r.calibration()
	switch {
	case t != nil && paid > 0:
		_, top := r.refLook()
		return split{k: 1, budget: r.Alpha - withError(t.PaidRates[paid-1], t.Reps), reserve: float64(paid) * top, paid: paid}
	case t != nil && k <= len(t.Rates):
		return split{k: k, budget: max(0, r.Alpha-float64(k)*withError(t.Rates[k-1], t.Reps))}
	}
	return split{k: k}
}

// withError is a simulated rate raised by two standard errors of its
// simulation (reps replicates) and its rounding, so that the family and
// the late counts together stay within Alpha.
func withError(rate float64, reps int) float64 {
	return rate + 2*math.Sqrt(rate/float64(max(reps, 1))) + 5e-6
}

// share is the share of alpha each test of the family is calibrated for
// (its conditional power at the futility stop is against it): Alpha/k,
// or beside paid counts Alpha less their reserve.
func (r Rule) share(sp split) float64 {
	if sp.paid > 0 {
		return r.Alpha - sp.reserve
	}
	return r.Alpha / float64(max(sp.k, 1))
}

// countLevel is the late counts' level at a look (an index into
// r.Looks()): the reserve for the paid counts at the reference look, and
// the budget less it times the union-bound shape of the looks (levels:
// half at the first, the rest equally).
func (r Rule) countLevel(look int, sp split) float64 {
	l := r.levels()[look] / r.Alpha * (sp.budget - sp.reserve)
	if rl, _ := r.refLook(); look == rl {
		l += sp.reserve
	}
	return l
}

// lateCounts reports which samples are late counts: counts (B/op,
// allocs/op) out of the mutant's family (seq). With Correction None there
// are none.
func (r Rule) lateCounts(samples []Sample, seq []bool) []bool {
	late := make([]bool, len(samples))
	for i, s := range samples {
		late[i] = r.Correction != None && !seq[i] && IsCount(s.Metric)
	}
	return late
}

// A lookPlan is each test's place at one look: whether it is in its
// family's correction (the mutant's family, fixed at the reference look,
// or the late counts', Tarone's reduction at this look), its level, what
// its adjusted p-value is compared with, that adjusted p-value, and how
// many tests are in a family at the look.
type lookPlan struct {
	in        []bool
	level     []float64 // per test
	threshold []float64 // PAdj is compared with it: the family's size times level
	adj       []float64
	size      int // the tests in a family at this look, both families
}

// planLook places each test at a look (an index into r.Looks()): the tests
// of the mutant's family (seq) whose reachable p-value (pmins) is at most
// the level of a family of sp.k, and the late counts that Tarone's
// reduction takes at this look's count level; each family is adjusted
// with Correction over its own tests. With Correction None every test is
// in and compared with the level of one test.
func (r Rule) planLook(samples []Sample, seq []bool, ps, pmins []float64, look int, sp split) lookPlan {
	n := len(samples)
	p := lookPlan{in: make([]bool, n), level: make([]float64, n), threshold: make([]float64, n), adj: make([]float64, n)}
	late := r.lateCounts(samples, seq)
	tl := r.familyLevel(look, sp)
	var cpm []float64
	var ci []int
	for i := range samples {
		if late[i] {
			cpm, ci = append(cpm, pmins[i]), append(ci, i)
			continue
		}
		p.level[i] = tl
		p.in[i] = r.Correction == None || seq[i] && pmins[i] <= tl
	}
	if len(ci) > 0 {
		cl := r.countLevel(look, sp)
		kc, cin := reduceFamily(cpm, func(k int) float64 { return cl / float64(k) })
		for j, i := range ci {
			p.in[i], p.level[i] = cin[j], cl/float64(kc)
		}
	}
	for _, lc := range []bool{false, true} {
		sub := make([]bool, n)
		f := 0
		for i := range samples {
			if sub[i] = p.in[i] && late[i] == lc; sub[i] {
				f++
			}
		}
		adj := adjustIn(ps, sub, r.Correction)
		for i := range samples {
			if late[i] != lc {
				continue
			}
			p.adj[i], p.threshold[i] = adj[i], p.level[i]
			if r.Correction != None && f > 1 {
				p.threshold[i] = p.level[i] * float64(f)
			}
		}
		p.size += f
	}
	return p
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
