package score

import (
	"fmt"
	"slices"
)

// A Test is the two-sample test the kill rule applies to each benchmark and
// metric of a mutant (the -test flag).
type Test string

// The tests.
const (
	// KS is the one-sided two-sample Kolmogorov-Smirnov test, the method of
	// the SlowCoach paper and the default. It sees any stochastic
	// increase, in the location or in the tail.
	KS Test = "ks"
	// MWU is the one-sided Mann-Whitney U (Wilcoxon rank-sum) test: more
	// powerful against a shift of the whole distribution, in particular on
	// discretized values (integer ns/op) with many ties.
	MWU Test = "mwu"
)

// ParseTest parses a -test flag value.
func ParseTest(s string) (Test, error) {
	for _, t := range []Test{KS, MWU} {
		if string(t) == s {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown test %q (want ks or mwu)", s)
}

// PValue returns the test's statistic and one-sided p-value for "mutant is
// stochastically larger than baseline". For KS the statistic is d and,
// without ties, the p-value is OneSidedKS's (scipy's); with ties among the
// pooled values it is the exact p-value under the permutation null
// conditional on the tie pattern (the statistic can only change between
// distinct values), which is never larger and keeps the test's size close
// to its level on discretized data. For MWU the statistic is u/(n1 n2) and
// the p-value OneSidedMWU's. An empty Test means KS.
func (t Test) PValue(baseline, mutant []float64) (stat, p float64) {
	if t == MWU {
		u, p := OneSidedMWU(baseline, mutant)
		if len(baseline) == 0 || len(mutant) == 0 {
			return 0, p
		}
		return u / float64(len(baseline)*len(mutant)), p
	}
	d, p := OneSidedKS(baseline, mutant)
	n1, n2 := len(baseline), len(mutant)
	if n1 == 0 || n2 == 0 || n1+n2 > maxExactPooled || p == 1 {
		return d, p
	}
	blocks, ties := tieBlocks(baseline, mutant)
	if !ties {
		return d, p
	}
	// The conditional p-value, when the ties make it smaller (not merely by
	// rounding: without effective ties the two are the same number).
	if pt := ksTiesExact(n1, n2, ksLattice(baseline, mutant), blocks); pt < p*(1-1e-9) {
		p = pt
	}
	return d, p
}

// ReachableP is the smallest p-value test t can give for any split of the
// pooled values of baseline and mutant into samples of their sizes: the
// split that gives the mutant the largest values (both statistics are
// largest there). It is 1 when every pooled value is the same (e.g. a
// constant allocs/op on both sides), 1/C(n1+n2, n1) when all values
// differ, and in between with ties.
//
// Given the pooled values, the test's permutation distribution under "no
// difference" puts every split at equal probability and the p-value is
// valid conditionally on them; so a test whose ReachableP exceeds its level
// can never reject, whatever the split, and may be left out of the
// multiple-comparison family (Tarone 1990; see AdjustFamily).
func (t Test) ReachableP(baseline, mutant []float64) float64 {
	n1, n2 := len(baseline), len(mutant)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	pooled := make([]float64, 0, n1+n2)
	pooled = append(append(pooled, baseline...), mutant...)
	slices.Sort(pooled)
	if pooled[0] == pooled[len(pooled)-1] {
		return 1
	}
	_, p := t.PValue(pooled[:n1], pooled[n1:])
	return p
}
