package score

import (
	"fmt"
	"slices"
	"strings"
)

// A Test names the two-sample test the kill rule applies to each benchmark
// and metric of a mutant (the -test flag, report.json's "test"): one of
// Tests, whose TwoSample says what it does.
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

// A TwoSample is one two-sample test the kill rule can apply: what the
// rule needs of it, registered in Tests under its name. Adding a test is
// one file with its function returning a TwoSample, its line in Tests and
// its calibration (see the package documentation).
type TwoSample struct {
	// Name is the -test value and the "test" of report.json.
	Name Test
	// Label is the short name reports print, e.g. "KS".
	Label string
	// PValue returns the statistic and the one-sided p-value of "mutant is
	// stochastically larger than baseline", valid under the permutation
	// null (every split of the pooled values equally likely) given the
	// ties, and smallest for the split that gives the mutant the largest
	// values (ReachableP relies on it).
	PValue func(baseline, mutant []float64) (stat, p float64)
	// BreakTies says whether the rule breaks the ties of a time metric at
	// random before testing (breakTies): for a test whose levels are
	// calibrated on continuous data and whose tied p-values would spend
	// less (KS); not for one whose p-value is exact given the ties (MWU).
	BreakTies bool
	// Efficiency is the test's asymptotic relative efficiency against the
	// t-test for a shift of normal data (Pitman), for MinDetectable.
	Efficiency float64
}

// Tests lists the registered tests, the default (KS) first. The
// calibrated levels of each (levels_table.go, written by bench/simrule
// -levels for every test listed here) are looked up by its name; a test
// without them shares alpha over the looks by the union bound.
func Tests() []TwoSample { return []TwoSample{ksTest(), mwuTest()} }

// LookupTest returns the registered test called name, or an error naming
// the tests there are.
func LookupTest(name Test) (TwoSample, error) {
	var names []string
	for _, t := range Tests() {
		if t.Name == name {
			return t, nil
		}
		names = append(names, string(t.Name))
	}
	return TwoSample{}, fmt.Errorf("unknown test %q (want %s)", name, orList(names))
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseTest parses a -test flag value: the name of a registered test.
func ParseTest(s string) (Test, error) {
	t, err := LookupTest(Test(s))
	return t.Name, err
}

// def is t's registered test, KS for an empty Test. An unknown name is a
// programming error (ParseTest and Rule.Validate reject it first): it
// panics.
func (t Test) def() TwoSample {
	if t == "" {
		t = KS
	}
	d, err := LookupTest(t)
	if err != nil {
		panic("score: " + err.Error())
	}
	return d
}

// Label is the short name reports print for t, e.g. "KS".
func (t Test) Label() string { return t.def().Label }

// PValue returns the test's statistic and one-sided p-value for "mutant is
// stochastically larger than baseline" (TwoSample.PValue). An empty Test
// means KS.
func (t Test) PValue(baseline, mutant []float64) (stat, p float64) {
	return t.def().PValue(baseline, mutant)
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
