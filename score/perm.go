package score

import (
	"cmp"
	"math"
	"slices"
)

// maxExactPooled is the largest pooled sample (baseline plus mutant) for
// which the tie-aware p-values are computed exactly: the path counts are
// float64s, and C(1000, 500) is about 2.7e299.
const maxExactPooled = 1000

// tieBlocks returns the sizes of the groups of equal values in the pooled,
// sorted sample, in ascending order of value, and whether any group has
// more than one value.
func tieBlocks(baseline, mutant []float64) (sizes []int, ties bool) {
	pooled := make([]float64, 0, len(baseline)+len(mutant))
	pooled = append(append(pooled, baseline...), mutant...)
	slices.SortFunc(pooled, cmp.Compare[float64])
	for i := 0; i < len(pooled); {
		j := i + 1
		for j < len(pooled) && cmp.Compare(pooled[j], pooled[i]) == 0 {
			j++
		}
		sizes = append(sizes, j-i)
		ties = ties || j-i > 1
		i = j
	}
	return sizes, ties
}

// binomRow returns C(n, k) for k = 0..n as float64s (exact up to n = 56,
// and within a few ulps beyond).
func binomRow(n int) []float64 {
	row := make([]float64, n+1)
	row[0] = 1
	for k := 1; k <= n; k++ {
		row[k] = math.Round(row[k-1] * float64(n-k+1) / float64(k))
		if n > 56 {
			row[k] = row[k-1] * float64(n-k+1) / float64(k)
		}
	}
	return row
}

// ksTiesExact is the exact p-value of the one-sided KS statistic h (in units
// of gcd(n1, n2)/(n1 n2), as ksLattice returns it) under the permutation
// null conditional on the tie pattern: the fraction of the C(N, n1) ways of
// choosing which pooled positions are baseline whose statistic, evaluated
// at the ends of the tie blocks only (as ksLattice does), reaches h. Without
// ties it equals the continuous exact p-value.
func ksTiesExact(n1, n2, h int, blocks []int) float64 {
	if h <= 0 {
		return 1
	}
	bound := h * gcd(n1, n2)
	total := n1 + n2
	// cnt[i]: weighted count of the assignments of the blocks so far with
	// i baseline values that have not reached the bound.
	cnt := make([]float64, n1+1)
	next := make([]float64, n1+1)
	cnt[0] = 1
	crossed, pos := 0.0, 0
	for _, b := range blocks {
		clear(next)
		row := binomRow(b)
		for i, c := range cnt {
			if c == 0 {
				continue
			}
			j := pos - i
			for a := max(0, b-(n2-j)); a <= b && i+a <= n1; a++ {
				next[i+a] += c * row[a]
			}
		}
		pos += b
		for i, c := range next {
			if c != 0 && i*n2-(pos-i)*n1 >= bound {
				crossed += c * binomCount(total-pos, n1-i)
				next[i] = 0
			}
		}
		cnt, next = next, cnt
	}
	return min(crossed/binomCount(total, n1), 1)
}

// binomCount is C(n, k) as a float64.
func binomCount(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	v := 1.0
	for j := 1; j <= k; j++ {
		v = v * float64(n-k+j) / float64(j)
	}
	if n <= 56 {
		v = math.Round(v)
	}
	return v
}

// OneSidedMWU is the one-sided two-sample Mann-Whitney U test of the
// alternative "mutant is stochastically larger than baseline". u is the
// Mann-Whitney count of the mutant: the number of (baseline, mutant) pairs
// with the mutant value larger, ties counting one half; u/(n1 n2) estimates
// P(mutant > baseline) + P(mutant = baseline)/2.
//
// The p-value P(U >= u) is exact under the permutation null conditional on
// the tie pattern (every choice of which pooled values are the baseline's
// equally likely; ties keep their midrank treatment), computed by counting
// assignments block by block, while the pooled sample has at most 1000
// values and n1*n2 at most 250000; beyond that it is the normal
// approximation with the tie-corrected variance and a continuity
// correction. An empty sample gives u = 0, p = 1.
func OneSidedMWU(baseline, mutant []float64) (u, p float64) {
	n1, n2 := len(baseline), len(mutant)
	if n1 == 0 || n2 == 0 {
		return 0, 1
	}
	u2, blocks := mwuDoubled(baseline, mutant)
	switch {
	case n1+n2 > maxExactPooled || n1*n2 > 250000:
		return float64(u2) / 2, mwuNormal(n1, n2, u2, blocks)
	case len(blocks) == n1+n2:
		return float64(u2) / 2, mwuNoTies(n1, n2, u2/2)
	}
	return float64(u2) / 2, mwuExact(n1, n2, u2, blocks)
}

// mwuDoubled returns 2U of the mutant and the tie blocks.
func mwuDoubled(baseline, mutant []float64) (int, []int) {
	x, y := slices.Clone(baseline), slices.Clone(mutant)
	slices.SortFunc(x, cmp.Compare[float64])
	slices.SortFunc(y, cmp.Compare[float64])
	u2, below, i := 0, 0, 0
	var blocks []int
	for j := 0; j < len(y); {
		// y[j..k) are equal; x[i..l) are the baseline values tied with them.
		for i < len(x) && cmp.Compare(x[i], y[j]) < 0 {
			i++
			below++
		}
		k := j + 1
		for k < len(y) && cmp.Compare(y[k], y[j]) == 0 {
			k++
		}
		l := i
		for l < len(x) && cmp.Compare(x[l], y[j]) == 0 {
			l++
		}
		u2 += (k - j) * (2*below + (l - i))
		j = k
	}
	blocks, _ = tieBlocks(baseline, mutant)
	return u2, blocks
}

// mwuNoTies is P(U >= u) without ties: the counts of U are the
// coefficients of the Gaussian binomial [n1+n2 choose n1]_q, built as
// the product over i of (1 - q^(n2+i)) / (1 - q^i), each step leaving
// [n2+i choose i]_q (nonnegative coefficients).
func mwuNoTies(n1, n2, u int) float64 {
	if u <= 0 {
		return 1
	}
	c := make([]float64, n1*n2+1)
	c[0] = 1
	for i := 1; i <= n1; i++ {
		a := n2 + i
		for v := len(c) - 1; v >= a; v-- {
			c[v] -= c[v-a]
		}
		for v := i; v < len(c); v++ {
			c[v] += c[v-i]
		}
	}
	tail, all := 0.0, 0.0
	for v, x := range c {
		all += x
		if v >= u {
			tail += x
		}
	}
	return min(tail/all, 1)
}

// mwuExact is P(2U >= u2) under the permutation null given the tie blocks.
func mwuExact(n1, n2, u2 int, blocks []int) float64 {
	if u2 <= 0 {
		return 1
	}
	total := n1 + n2
	width := u2 // states 0..u2-1; reaching u2 counts as crossed
	// cnt[i*width+v]: weighted count of the assignments of the blocks so
	// far with i baseline values and 2U = v < u2.
	cnt := make([]float64, (n1+1)*width)
	next := make([]float64, (n1+1)*width)
	cnt[0] = 1
	crossed, pos := 0.0, 0
	for _, b := range blocks {
		clear(next)
		row := binomRow(b)
		for i := 0; i <= n1 && i <= pos; i++ {
			j := pos - i
			if j > n2 {
				continue
			}
			src := cnt[i*width : (i+1)*width]
			for a := max(0, b-(n2-j)); a <= b && i+a <= n1; a++ {
				m := b - a
				inc := m * (2*i + a)
				w := row[a]
				rest := binomCount(total-pos-b, n1-i-a)
				dst := next[(i+a)*width : (i+a+1)*width]
				for v, c := range src {
					if c == 0 {
						continue
					}
					if v+inc >= u2 {
						crossed += c * w * rest
					} else {
						dst[v+inc] += c * w
					}
				}
			}
		}
		pos += b
		cnt, next = next, cnt
	}
	return min(crossed/binomCount(total, n1), 1)
}

// mwuNormal is the normal approximation of P(2U >= u2) with the tie
// correction of the variance and a continuity correction of one half in U.
func mwuNormal(n1, n2, u2 int, blocks []int) float64 {
	fn1, fn2 := float64(n1), float64(n2)
	nn := fn1 + fn2
	tie := 0.0
	for _, b := range blocks {
		t := float64(b)
		tie += t*t*t - t
	}
	v := fn1 * fn2 / 12 * ((nn + 1) - tie/(nn*(nn-1)))
	if v <= 0 {
		return 1
	}
	z := (float64(u2)/2 - fn1*fn2/2 - 0.5) / math.Sqrt(v)
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// mwuTest is the one-sided Mann-Whitney U test: the statistic is u/(n1
// n2), the p-value OneSidedMWU's (exact given the ties).
func mwuTest() TwoSample {
	return TwoSample{Name: MWU, Label: "MWU",
		PValue: mwuPValue, Efficiency: 3 / math.Pi}
}

func mwuPValue(baseline, mutant []float64) (stat, p float64) {
	u, p := OneSidedMWU(baseline, mutant)
	if len(baseline) == 0 || len(mutant) == 0 {
		return 0, p
	}
	return u / float64(len(baseline)*len(mutant)), p
}
