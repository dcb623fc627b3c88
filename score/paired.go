package score

import (
	"math"
	"slices"
)

// SignedRank is the one-sided Wilcoxon signed-rank test of a comparison
// measured in rounds (baseline[i] and mutant[i] sampled back to back, in
// random order): is mutant[i]/baseline[i] above 1, i.e. the log ratios
// shifted above 0? Rounds whose ratio is 1 (equal values, 0/0) are left
// out; the others are ranked by |log ratio| (ties share their mean rank;
// x/0 and 0/x are the largest), and the statistic is the sum of the ranks
// of the rounds with a ratio above 1, returned as a fraction of its largest
// value n(n+1)/2. The p-value P(W+ >= w) is exact under the null that each
// log ratio is symmetric about 0 (the random order within a round gives
// it), conditionally on the ranks: every one of the 2^n sign patterns
// equally likely, counted by dynamic programming over the doubled ranks.
// A drift shared by a round's two samples (load, frequency) cancels in
// its ratio. Rounds beyond the shorter side are ignored; with no rounds
// left the p-value is 1. It also returns n, the rounds tested.
func SignedRank(baseline, mutant []float64) (stat, p float64, n int) {
	ds := logRatios(baseline, mutant)
	n = len(ds)
	if n == 0 {
		return 0, 1, 0
	}
	ranks2 := doubledRanks(ds)
	w2, total := 0, 0
	for i, d := range ds {
		total += ranks2[i]
		if d > 0 {
			w2 += ranks2[i]
		}
	}
	// counts[s] = number of sign patterns whose positive doubled ranks sum to s.
	counts := make([]float64, total+1)
	counts[0] = 1
	top := 0
	for _, r := range ranks2 {
		for s := top; s >= 0; s-- {
			if counts[s] != 0 {
				counts[s+r] += counts[s]
			}
		}
		top += r
	}
	tail := 0.0
	for s := w2; s <= total; s++ {
		tail += counts[s]
	}
	return float64(w2) / float64(total), min(1, tail/math.Pow(2, float64(n))), n
}

// signedRankMin is the smallest p-value SignedRank can give with these
// rounds, whatever their signs: every ratio above 1, 2^-n (1 with none).
func signedRankMin(baseline, mutant []float64) float64 {
	return math.Pow(2, -float64(len(logRatios(baseline, mutant))))
}

// logRatios returns log(mutant[i]/baseline[i]) of the rounds whose ratio
// is not 1: +Inf for x/0, -Inf for 0/x.
func logRatios(baseline, mutant []float64) []float64 {
	var ds []float64
	for i := range min(len(baseline), len(mutant)) {
		b, m := baseline[i], mutant[i]
		var d float64
		switch {
		case b == m:
			continue
		case b == 0:
			d = math.Inf(1)
		case m == 0:
			d = math.Inf(-1)
		default:
			d = math.Log(m / b)
		}
		if d != 0 && !math.IsNaN(d) {
			ds = append(ds, d)
		}
	}
	return ds
}

// doubledRanks returns twice the mid-rank of each |d| among all |d|: an
// integer, as tied values share the mean of their ranks.
func doubledRanks(ds []float64) []int {
	idx := make([]int, len(ds))
	for i := range idx {
		idx[i] = i
	}
	abs := func(i int) float64 { return math.Abs(ds[i]) }
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case abs(a) < abs(b):
			return -1
		case abs(a) > abs(b):
			return 1
		}
		return 0
	})
	ranks2 := make([]int, len(ds))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && abs(idx[j]) == abs(idx[i]) {
			j++
		}
		// ranks i+1 .. j share their mean (i+1+j)/2: doubled, i+1+j.
		for k := i; k < j; k++ {
			ranks2[idx[k]] = i + 1 + j
		}
		i = j
	}
	return ranks2
}
