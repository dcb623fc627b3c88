package score

import (
	"cmp"
	"math"
	"math/big"
	"slices"
	"strconv"
)

// A Method selects how OneSidedKSMethod computes the p-value.
type Method int

// The p-value methods.
const (
	// Auto is scipy's method='auto': Exact while the larger sample has at
	// most 10000 values and the exact computation fits (see Exact), else
	// Asymp.
	Auto Method = iota
	// Exact counts lattice paths (Hodges 1958). For equal sizes it is the
	// closed form C(2n, n-h)/C(2n, n); otherwise the count is done in exact
	// integer arithmetic. Like scipy, it falls back to Asymp for unequal sizes
	// whose path count C(n1+n2, n1) does not fit a float64 (n1+n2 above
	// about 1030).
	Exact
	// Asymp is Hodges' asymptotic approximation, eq. 5.3.
	Asymp
)

// String returns "auto", "exact" or "asymp".
func (m Method) String() string {
	switch m {
	case Auto:
		return "auto"
	case Exact:
		return "exact"
	case Asymp:
		return "asymp"
	}
	return "Method(" + strconv.Itoa(int(m)) + ")"
}

// maxAutoN is the largest sample for which Auto tries Exact (scipy's
// MAX_AUTO_N).
const maxAutoN = 10000

// OneSidedKS is the one-sided two-sample Kolmogorov-Smirnov test of the
// alternative "mutant is stochastically larger than baseline" (its empirical
// CDF lies below the baseline's), with the p-value method chosen as scipy's
// method='auto' does. It equals scipy.stats.ks_2samp(mutant, baseline,
// alternative='less').
//
// d = max over x of F_baseline(x) - F_mutant(x), in [0, 1], with
// right-continuous empirical CDFs (tied values counted together). The p-value
// assumes continuous data and is conservative when there are ties. The
// inputs may be in any order and are not modified. An empty sample gives
// d = 0, p = 1. NaNs sort below every number.
func OneSidedKS(baseline, mutant []float64) (d, p float64) {
	return OneSidedKSMethod(baseline, mutant, Auto)
}

// OneSidedKSMethod is OneSidedKS with the p-value computed by method m
// (values other than Exact and Asymp act as Auto).
func OneSidedKSMethod(baseline, mutant []float64, m Method) (d, p float64) {
	n1, n2 := len(baseline), len(mutant)
	if n1 == 0 || n2 == 0 {
		return 0, 1
	}
	h := ksLattice(baseline, mutant)
	g := gcd(n1, n2)
	lcm := (n1 / g) * n2
	d = float64(h) / float64(lcm)
	switch m {
	case Asymp:
		return d, ksAsymp(n1, n2, d)
	case Exact:
		if !exactFits(n1, n2) {
			return d, ksAsymp(n1, n2, d)
		}
	default:
		if max(n1, n2) > maxAutoN || !exactFits(n1, n2) {
			return d, ksAsymp(n1, n2, d)
		}
	}
	return d, ksExact(n1, n2, g, h)
}

// ksLattice returns the statistic in units of 1/lcm(n1, n2): the largest
// value over all x of (#baseline <= x)*n2 - (#mutant <= x)*n1, divided by
// gcd(n1, n2). It is exact: there is no rounding of d*lcm.
func ksLattice(baseline, mutant []float64) int {
	x := slices.Clone(baseline)
	y := slices.Clone(mutant)
	slices.Sort(x)
	slices.Sort(y)
	n1, n2 := len(x), len(y)
	i, j, best := 0, 0, 0
	for i < n1 && j < n2 {
		// The next distinct value; advance both samples past all of its ties.
		t := x[i]
		if cmp.Compare(y[j], t) < 0 {
			t = y[j]
		}
		for i < n1 && cmp.Compare(x[i], t) == 0 {
			i++
		}
		for j < n2 && cmp.Compare(y[j], t) == 0 {
			j++
		}
		best = max(best, i*n2-j*n1)
	}
	// Once either sample is exhausted the difference only falls (x done:
	// i*n2 = n1*n2 is the top) or is already counted (y done: i grows to n1
	// while j = n2, giving 0).
	return best / gcd(n1, n2)
}

// exactFits reports whether the exact p-value is computed for sizes n1, n2,
// following scipy's _attempt_exact_2kssamp: always for equal sizes; for
// unequal ones only while lcm(n1, n2) fits an int32 and C(n1+n2, n1) is a
// finite float64 (beyond that scipy's float computation overflows and it
// falls back to the asymptotic p-value).
func exactFits(n1, n2 int) bool {
	if n1 == n2 {
		return true
	}
	g := gcd(n1, n2)
	if n1/g >= math.MaxInt32/(n2/g) {
		return false
	}
	return logBinom(n1+n2, n1) < math.Log(math.MaxFloat64)
}

// ksAsymp is Hodges' eq. 5.3: with m >= n, z = d*sqrt(mn/(m+n)),
// p = exp(-2z^2 - 2z(m+2n)/(3 sqrt(mn(m+n)))), clipped to [0, 1].
func ksAsymp(n1, n2 int, d float64) float64 {
	m, n := float64(max(n1, n2)), float64(min(n1, n2))
	z := math.Sqrt(m*n/(m+n)) * d
	p := math.Exp(-2*z*z - 2*z*(m+2*n)/math.Sqrt(m*n*(m+n))/3)
	return min(max(p, 0), 1)
}

// ksExact is the exact p-value P(D >= h/lcm) under the null for continuous
// data.
func ksExact(n1, n2, g, h int) float64 {
	if h <= 0 {
		return 1
	}
	if n1 == n2 {
		// C(2n, n-h) / C(2n, n) as a product of ratios in (0, 1]: no
		// overflow, relative error of a few ulps per factor.
		p := 1.0
		for j := 0; j < h; j++ {
			p *= float64(n1-j) / float64(n1+j+1)
		}
		return p
	}
	m, n := max(n1, n2), min(n1, n2)
	count := pathsTouching(m, n, g, h)
	total := new(big.Int).Binomial(int64(m+n), int64(n))
	p, _ := new(big.Rat).SetFrac(count, total).Float64()
	return min(max(p, 0), 1)
}

// pathsTouching counts, exactly, the lattice paths from (0,0) to (m,n)
// (m >= n, steps +x for a mutant value and +y for a baseline value) that
// reach the line n*x - m*y = h*g, by Hodges' first-passage decomposition as
// in scipy's _count_paths_outside_method: x_j is the first x at which the
// boundary is reached at height j, B_j counts the paths to (x_j, j) that
// touch the boundary there for the first time, and each is extended by any
// path to (m, n):
//
//	B_0 = 1, B_j = C(x_j + j, j) - sum_{i<j} C(x_j - x_i + j - i, j - i) B_i
//	count = sum_j B_j C(m - x_j + n - j, n - j)
//
// The binomials are walked, not recomputed: each family below moves with
// non-decreasing k and a - k, one multiply and one exact divide by a word per
// step.
func pathsTouching(m, n, g, h int) *big.Int {
	mg, ng := m/g, n/g
	lxj := n + floorDiv(mg-h, mg)
	if lxj <= 0 {
		return new(big.Int).Binomial(int64(m+n), int64(n))
	}
	xj := make([]int, lxj)
	for j := range xj {
		xj[j] = (h + mg*j + ng - 1) / ng
	}

	// span[k] holds C(delta + k, k) for delta = x_{i+k} - x_i, which for a
	// fixed k takes only a few adjacent values starting at dmin[k].
	dmin := make([]int, lxj)
	span := make([][]*big.Int, lxj)
	var w binomWalker
	for k := 1; k < lxj; k++ {
		lo, hi := xj[k]-xj[0], xj[k]-xj[0]
		for i := 1; i+k < lxj; i++ {
			lo, hi = min(lo, xj[i+k]-xj[i]), max(hi, xj[i+k]-xj[i])
		}
		dmin[k] = lo
		row := []*big.Int{new(big.Int).Set(w.to(lo+k, k))}
		v := binomWalker{a: w.a, k: w.k, v: new(big.Int).Set(w.v)} // walks on along delta
		for d := lo + 1; d <= hi; d++ {
			row = append(row, new(big.Int).Set(v.to(d+k, k)))
		}
		span[k] = row
	}

	b := make([]*big.Int, lxj)
	b[0] = big.NewInt(1)
	var head binomWalker
	var t big.Int
	for j := 1; j < lxj; j++ {
		bj := new(big.Int).Set(head.to(xj[j]+j, j))
		for i := 0; i < j; i++ {
			k := j - i
			t.Mul(span[k][xj[j]-xj[i]-dmin[k]], b[i])
			bj.Sub(bj, &t)
		}
		b[j] = bj
	}
	count := new(big.Int)
	var tail binomWalker
	for j := lxj - 1; j >= 0; j-- {
		t.Mul(b[j], tail.to(m-xj[j]+n-j, n-j))
		count.Add(count, &t)
	}
	return count
}

// A binomWalker holds v = C(a, k) and moves to larger k and larger a - k.
// The zero value is C(0, 0) = 1.
type binomWalker struct {
	a, k int
	v    *big.Int
	w    big.Int
}

// to moves to C(a, k) and returns it (owned by the walker). It needs
// k >= w.k and a-k >= w.a-w.k.
func (w *binomWalker) to(a, k int) *big.Int {
	if w.v == nil {
		w.v = big.NewInt(1)
	}
	for w.k < k { // C(a+1, k+1) = C(a, k) (a+1) / (k+1)
		w.a++
		w.k++
		w.v.Mul(w.v, w.w.SetInt64(int64(w.a)))
		w.v.Quo(w.v, w.w.SetInt64(int64(w.k)))
	}
	for w.a-w.k < a-k { // C(a+1, k) = C(a, k) (a+1) / (a+1-k)
		w.a++
		w.v.Mul(w.v, w.w.SetInt64(int64(w.a)))
		w.v.Quo(w.v, w.w.SetInt64(int64(w.a-w.k)))
	}
	return w.v
}

func logBinom(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// floorDiv is a/b rounded towards minus infinity (b > 0), as Python's //.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// smallestP is the smallest p-value the exact one-sided test can give with
// n values in each sample: 1/C(2n, n) (every mutant value above every
// baseline value).
func smallestP(n int) float64 { return minP(n, n) }

// minP is the smallest p-value of the exact test with sizes n1 and n2:
// 1/C(n1+n2, n1).
func minP(n1, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	g := gcd(n1, n2)
	return ksExact(n1, n2, g, n1/g*n2)
}

// ksTest is the one-sided two-sample Kolmogorov-Smirnov test. The
// statistic is d and, without ties, the p-value is OneSidedKS's (scipy's);
// with ties among the pooled values it is the exact p-value under the
// permutation null conditional on the tie pattern (the statistic can only
// change between distinct values), which is never larger and keeps the
// test's size close to its level on discretized data.
func ksTest() TwoSample {
	return TwoSample{Name: KS, Label: "KS",
		PValue: ksPValue, BreakTies: true, Efficiency: 2 / math.Pi}
}

func ksPValue(baseline, mutant []float64) (stat, p float64) {
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
