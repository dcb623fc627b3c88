package main

import (
	"math"
)

// maxCombos bounds the exhaustive search: the number of threshold
// combinations (attainable levels within the cap, or none, at each look).
const maxCombos = 200000

// A tally is a number of replicates with the same ranks (capped just above
// the largest threshold tried) and the same last look.
type tally struct {
	ranks [4]uint16
	lim   int
	n     int
}

// tallies groups replicates by their capped ranks and last look.
func tallies(ranks [][]uint16, lim []int, maxr []int) (ts []tally, total int) {
	idx := map[[5]int]int{}
	for r, row := range ranks {
		var key [5]int
		var t tally
		for k, x := range row {
			t.ranks[k] = uint16(min(int(x), maxr[k]+1))
			key[k] = int(t.ranks[k])
		}
		t.lim, key[4] = lim[r], lim[r]
		if i, ok := idx[key]; ok {
			ts[i].n++
			continue
		}
		t.n = 1
		idx[key] = len(ts)
		ts = append(ts, t)
	}
	return ts, len(ranks)
}

// rejected is the fraction of the tallied replicates that reject at some
// look up to their last with thresholds th.
func rejected(ts []tally, total int, th []int) float64 {
	n := 0
	for _, t := range ts {
		for k, x := range th {
			if k <= t.lim && int(t.ranks[k]) <= x {
				n += t.n
				break
			}
		}
	}
	return float64(n) / float64(total)
}

// exhaustive calibrates the families of 1 to kmax tests by trying every
// combination of thresholds (an attainable level within the cap, or none,
// at each look). For each family size K a combination is allowed when its
// rate is within ceiling times beta = alpha/K less two standard errors of
// the simulation, its levels are at most levelCap times beta, and its first
// look's threshold is within firstLook's bounds (it kills only a full
// separation, and must when that is within half of beta). Of the
// allowed ones it takes those whose rate is within window (2%) of beta of the
// largest, and of them the one with the largest level at
// the last look, then at the one before, and so on (power for small effects
// comes late). It reports false when there are more than maxCombos
// combinations or more than four looks.
func (s *nullSim) exhaustive(alpha, futility float64, kmax int) (ths [][]int, rates []float64, ok bool) {
	L := len(s.looks)
	s.beta = alpha * levelCap(futility, 1) // the largest cap: the grid covers every K
	g := newGrid(s, L)
	if L > 4 || g.cells > maxCombos {
		return nil, nil, false
	}
	for K := 1; K <= kmax; K++ {
		beta := alpha / float64(K)
		th, rate := s.pick(g, beta, beta*levelCap(futility, K), futility)
		ths, rates = append(ths, th), append(rates, rate)
	}
	return ths, rates, true
}

// paid calibrates the levels of a family of one test beside c = 1 to
// maxPaid counts paid at the first look (see score's sequence.go): the
// test's share is alpha less c times the first look's level of a full
// separation (which the late counts then hold for the counts), with the
// cap and search of a family of one. It returns nothing when that level
// is above half of alpha (the first look of a family of one cannot kill)
// or the search is not exhaustive.
func (s *nullSim) paid(alpha, futility float64) (ths [][]int, rates []float64) {
	L := len(s.looks)
	s.beta = alpha * levelCap(futility, 1)
	g := newGrid(s, L)
	top := s.pvals[0][0] * (1 + 1e-9) // levels' value of a full separation
	if L > 4 || g.cells > maxCombos || top > alpha/2 {
		return nil, nil
	}
	for c := 1; c <= maxPaid; c++ {
		th, rate := s.pick(g, alpha-float64(c)*top, alpha*levelCap(futility, 1), futility)
		ths, rates = append(ths, th), append(rates, rate)
	}
	return ths, rates
}

// maxPaid is the most counts a family of one test may pay for at the
// first look: a benchmark's B/op and allocs/op.
const maxPaid = 2

// pick returns the thresholds and rate exhaustive chooses for one test's
// share beta with the level cap of a family of k tests, on the grid g:
// a combination is allowed when its rate is within ceiling times beta less
// two standard errors of the simulation, its levels are at most levelCap
// times beta, and its first look's threshold is within firstLook's bounds.
func (s *nullSim) pick(g *grid, beta, levelMax, futility float64) ([]int, float64) {
	L := len(s.looks)
	s.closeTests(beta, futility)
	ts, total := tallies(s.ranks, s.lim, g.maxr)
	s.beta = levelMax
	bound := make([]int, L)
	for i := range L {
		bound[i] = s.maxRank(i)
	}
	first, firstMax := firstLook(s.pvals[0], beta)
	share := make([]float64, g.cells) // -1: not allowed
	best := 0.0
	for c := range g.cells {
		share[c] = -1
		th := g.th(c)
		if !within(th, bound) || th[0] < first || th[0] > firstMax {
			continue
		}
		if r := rejected(ts, total, th); r <= limitOf(beta, total) {
			share[c] = r / beta
			best = max(best, share[c])
		}
	}
	pick := 0 // every threshold -1: always allowed
	for c, x := range share {
		// A later cell has a larger threshold at the last look that
		// differs.
		if x >= 0 && x >= best-window {
			pick = c
		}
	}
	return g.th(pick), rejected(ts, total, g.th(pick))
}

// firstLook returns the least and the largest threshold allowed at the
// first look, whose attainable p-values are ps, for a test's share beta.
// The least is 0 (the first look must be able to kill a full separation)
// when the smallest p-value is within half of beta: the runner's early
// kills rely on it (see score.Rule.MinSamples); else -1. The largest is 0:
// the first look kills only on a full separation (every mutant sample
// above every baseline one, 1/252 with 5 samples a side), never on the
// next attainable value (4 of 5 above, 0.0397). The simulation assumes
// exchangeable samples; real A/A timings taken one run after another are
// not quite, and five samples a side are where that shows most:
// `perfmut calibrate` on the demo (the baseline against itself) gave 4 and
// 2 false kills in 20 trials under load, 5 of the 6 at the first look
// with p = 0.0397. The alpha it frees is spent at the later looks.
func firstLook(ps []float64, beta float64) (least, largest int) {
	least = -1
	if ps[0] <= beta/2 {
		least = 0
	}
	return least, 0
}

// ceiling is the share of beta the exhaustive search aims below: the
// family-wise rates of docs/statistics.md are themselves simulated, and a
// rule calibrated to beta itself would show rates above alpha about as
// often as below.
const ceiling = 0.97

// window is how far below the largest share of beta a combination may be
// and still be chosen for its later levels.
const window = 0.02

// limitOf is the largest rate a simulation of reps replicates may show
// for a share beta: ceiling times beta less two standard errors.
func limitOf(beta float64, reps int) float64 {
	return ceiling*beta - 2*math.Sqrt(beta/float64(reps))
}

// A grid numbers the threshold combinations: cell c has threshold
// digit_k(c) - 1 at look k, in mixed radix with dims[k] = maxr[k] + 2, the
// last look's digit the most significant.
type grid struct {
	maxr, dims, stride []int
	cells              int
}

func newGrid(s *nullSim, L int) *grid {
	g := &grid{maxr: make([]int, L), dims: make([]int, L), stride: make([]int, L), cells: 1}
	for k := range L {
		g.maxr[k] = s.maxRank(k)
		g.dims[k] = g.maxr[k] + 2
		g.stride[k] = g.cells
		g.cells *= g.dims[k]
	}
	return g
}

// th returns cell c's thresholds.
func (g *grid) th(c int) []int {
	th := make([]int, len(g.dims))
	for k := range th {
		th[k] = c/g.stride[k]%g.dims[k] - 1
	}
	return th
}

// within reports whether every threshold is at most its bound.
func within(th, bound []int) bool {
	for k, t := range th {
		if t > bound[k] {
			return false
		}
	}
	return true
}
