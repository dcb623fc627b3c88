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
// reachable p-value of 0. With L(K) the look's level for a family of K
// (Levels), Decide's family size K (ruleFamily) lies between KLo, the K of
// the done tests alone (every pending test left out), and KHi, that of the
// done tests with every pending one in; a done test rejects here when its
// p-value is at most the smallest L(K) over that range (L is not monotone
// in K at a given look), its median ratio exceeds MinEffect (not for
// counts) and it was not closed for futility at an earlier look (from the
// values of all tests, done and pending, as Decide recomputes it), or when
// it is a deterministic increase. Such a test is in Decide's family, and
// its adjusted p-value there is at most F times its p-value (Bonferroni
// and Holm; F the family's size), below F times Decide's level: Decide
// rejects it too. The tests report PAdj = min(1, F p) and Threshold = F
// times that level, with F the done tests in the family plus every
// pending test.
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
	level, family := r.perTestLevel(look, 1), 1
	if r.Correction != None {
		perTest := func(k int) float64 { return r.perTestLevel(look, k) }
		lo, _ := ruleFamily(pmins[:len(done)], perTest)
		hi, in := ruleFamily(pmins, perTest)
		level = perTest(lo)
		for k := lo + 1; k <= hi; k++ {
			level = min(level, perTest(k))
		}
		family = count(in)
	}
	all := append(append([]Sample(nil), done...), pending...)
	closed := r.closedBefore(all, look)
	for i := range tests {
		t := &tests[i]
		t.PAdj, t.Threshold, t.Closed = min(1, t.P*float64(family)), level*float64(family), closed[i]
		t.Deterministic = deterministicIncrease(done[i])
		t.BelowMinEffect = !IsCount(t.Metric) && r.MinEffect > 1 && !(t.Ratio > r.MinEffect)
		t.Reject = t.Deterministic || t.P <= level && !t.BelowMinEffect && !t.Closed
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
