package score

import "math"

// DecideAhead is Decide for a mutant whose benchmarks are measured one
// after another at each look: done are the samples (benchmark x metric)
// whose rounds (Sample.Rounds) have reached the look's count, pending those
// of the tests still to be brought to it, with the values they have so far
// (every earlier look's count of rounds; none before the first look). It
// returns Kill only when Decide, once the pending tests reach the look too,
// would kill whatever their values are; otherwise Continue (measure them,
// then call Decide).
// So stopping at a Kill of DecideAhead gives the verdict Decide would give
// on the same data, and the false-kill rate is the rule's.
//
// A pending test may reach any p-value, so it counts in the family with a
// reachable p-value of 0. The mutant's family for the whole sequence
// (sequenceFamily) is fixed at the first look: at a later look the first
// look's rounds of every test are known and it is Decide's; at the first
// look a pending test is in it until its values are known, so Decide's
// family size K lies between KLo, the tests of the family whose first
// look is complete, and KHi, those with every pending one in. With L(K)
// the look's level for a family of K (familyLevels), a done test rejects here
// when it is in the family, its p-value is at most the smallest L(K) over
// that range (L is not monotone in K at a given look), its median ratio
// exceeds MinEffect (not for counts), or when it is a deterministic
// increase (the futility stop does not bind, so no test is closed). Such a test is in Decide's family at this look,
// and its adjusted p-value there is at most F times its p-value
// (Bonferroni and Holm; F the look's family size), below F times Decide's
// level: Decide rejects it too. The tests report PAdj = min(1, F p) and
// Threshold = F times that level, with F the done tests in the look's
// family plus every pending test of the mutant's family.
//
// While a test is pending at the first look, Decide may also find one
// time test beside counts paid for by the late counts (payCounts): the
// levels of that split count among the smallest, and a done count of the
// family is held to the lower of the family's and the late counts' level.
//
// Pending should list every metric a pending benchmark may report (an
// empty Sample for one not reported yet, e.g. a custom metric of the
// configuration): one that Decide later sees but DecideAhead did not
// could make K larger than KHi.
func (r Rule) DecideAhead(done, pending []Sample) Verdict {
	if err := r.Validate(); err != nil || len(done) == 0 {
		return Verdict{Decision: Continue}
	}
	r = r.WithDefaults()
	n := math.MaxInt
	tests := make([]TestResult, len(done))
	pmins := make([]float64, len(done)+len(pending)) // pending: 0
	for i, s := range done {
		n = min(n, s.Rounds())
		ranked := r.ranked(s)
		tests[i] = comparePoint(s, ranked, r.Test)
		pmins[i] = r.Test.ReachableP(ranked.Baseline, ranked.Mutant)
		tests[i].PMin = pmins[i]
	}
	v := Verdict{Decision: Continue, Tests: tests}
	look := r.lookAt(n)
	if look < 0 {
		return v
	}
	v.Look = look + 1
	all := append(append([]Sample(nil), done...), pending...)
	a := r.aheadLevels(all, pmins, look)
	seq, late, level, cl := a.seq, a.late, a.level, a.countLevel
	family, cfamily := a.family, a.counts
	for i := range tests {
		t := &tests[i]
		l, f, in := level, family, seq[i] || r.Correction == None
		switch {
		case late[i]:
			l, f, in = cl, cfamily, true
		case IsCount(t.Metric):
			l, f = a.countIn, max(family, cfamily) // it may be paid for
		}
		if r.Correction == None {
			f = 1
		}
		t.PAdj, t.Threshold = min(1, t.P*float64(max(f, 1))), l*float64(max(f, 1))
		t.Deterministic = r.deterministicIncrease(done[i])
		t.BelowMinEffect = !IsCount(t.Metric) && r.MinEffect > 1 && !(t.Ratio > r.MinEffect)
		t.Reject = in && t.P <= l && !t.BelowMinEffect
		if t.Reject {
			v.Decision = Kill
		}
	}
	if v.Decision == Kill {
		for i, s := range done {
			tests[i].addInterval(s, testSeed(r.Seed, s.Benchmark, s.Metric))
		}
	}
	return v
}

// lookAt returns the index into r.Looks() of the look taken when the
// fewest rounds of any test are n (the last look at MaxSamples or beyond),
// or -1 between looks. r has its defaults.
func (r Rule) lookAt(n int) int {
	looks := r.Looks()
	at := -1
	for k, nk := range looks {
		if nk == n || n >= r.MaxSamples && k == len(looks)-1 {
			at = k
		}
	}
	return at
}

// ahead is what DecideAhead compares a done test with at a look: the
// smallest level and late counts' level of any family Decide may find once
// the pending tests reach the look, and the sizes of the two families.
type ahead struct {
	seq, late                  []bool
	sp                         split
	level, countIn, countLevel float64 // countIn: a count of the family's
	family, counts             int
}

// aheadLevels computes ahead for the done and pending samples all (pmins:
// the pending ones' 0) at a look (an index into r.Looks()).
func (r Rule) aheadLevels(all []Sample, pmins []float64, look int) ahead {
	seq, complete, paid := r.sequenceFamily(all)
	lo, hi := 0, count(seq)
	for i := range all {
		if seq[i] && complete[i] {
			lo++
		}
	}
	// The smallest level, and the smallest late counts' level, of any
	// split Decide may find: a family of lo to hi tests, or, while a test
	// is pending at the reference look, one test beside paid counts
	// (payCounts), which may then take a count of the family to theirs.
	sp := r.split(hi, paid)
	splits := []split{sp}
	for k := lo; k < hi; k++ {
		splits = append(splits, r.split(k, 0))
	}
	mayPay := false
	if t := r.calibration(); t != nil && r.Correction != None && count(complete) < len(all) {
		for c := 1; c <= len(t.Paid); c++ {
			splits, mayPay = append(splits, r.split(1, c)), true
		}
	}
	level, cl := r.familyLevel(look, sp), r.countLevel(look, sp)
	for _, s := range splits {
		level, cl = min(level, r.familyLevel(look, s)), min(cl, r.countLevel(look, s))
	}
	late := r.lateCounts(all, seq)
	var cpm []float64
	for i, s := range all {
		// Every count may turn out late (a pending one with a reachable
		// p-value of 0, the worst case): more counts only lower the level.
		if IsCount(s.Metric) && r.Correction != None {
			cpm = append(cpm, pmins[i])
		}
	}
	kc, _ := reduceFamily(cpm, func(k int) float64 { return cl / float64(k) })
	cl /= float64(kc)
	// A count of the family may be paid for: it is held to the lower of
	// the two levels.
	countIn := level
	if mayPay {
		countIn = min(level, cl)
	}
	family, cfamily := 0, 0
	for i, s := range all {
		switch {
		case late[i] && pmins[i] <= cl:
			cfamily++
		case (seq[i] || r.Correction == None) && pmins[i] <= level:
			family++
			if mayPay && IsCount(s.Metric) {
				cfamily++ // it may be in the late counts' family instead
			}
		}
	}
	return ahead{seq: seq, late: late, sp: sp, level: level, countIn: countIn, countLevel: cl, family: family, counts: cfamily}
}
