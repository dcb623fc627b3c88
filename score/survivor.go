package score

import "math"

// survivorRanks is Rule.survivorRanks for a schedule of looks and a
// chance tail.
func survivorRanks(looks []int, tail float64) []int {
	L := len(looks)
	ks := make([]int, L)
	grow := func(j int, limit float64) {
		for ks[j] < looks[j] {
			ks[j]++
			if survivorCrossing(looks, ks) > limit*(1+1e-12) {
				ks[j]--
				return
			}
		}
	}
	grow(0, tail)
	first := survivorCrossing(looks, ks)
	for j := 1; j < L; j++ {
		grow(j, first+(tail-first)*float64(j)/float64(L-1))
	}
	for j := L - 1; j > 0; j-- {
		grow(j, tail)
	}
	return ks
}

// survivorCrossing is the chance that a benchmark whose per-round ratios
// are each at or above the margin with probability 1/2, independently,
// has at some look j fewer than ks[j] of its looks[j] ratios at or above
// it: that its ks[j]-th largest ratio is below the margin, and it
// survives there. A walk over the count of ratios at or above the margin,
// the paths that survive at a look taken out.
func survivorCrossing(looks, ks []int) float64 {
	dist := []float64{1} // dist[a]: still running with a ratios at or above
	prev, crossed := 0, 0.0
	for j, n := range looks {
		m := n - prev
		row := make([]float64, m+1) // the look's binomial row, once
		for i := range row {
			row[i] = halfBinomial(m, i)
		}
		next := make([]float64, len(dist)+m)
		for a, p := range dist {
			if p == 0 {
				continue
			}
			for i, b := range row {
				next[a+i] += p * b
			}
		}
		for a := 0; a < ks[j] && a < len(next); a++ {
			crossed += next[a]
			next[a] = 0
		}
		dist, prev = next, n
	}
	return crossed
}

// halfBinomial is P(Binomial(m, 1/2) = i).
func halfBinomial(m, i int) float64 {
	lm, _ := math.Lgamma(float64(m + 1))
	li, _ := math.Lgamma(float64(i + 1))
	lr, _ := math.Lgamma(float64(m - i + 1))
	return math.Exp(lm - li - lr - float64(m)*math.Ln2)
}
