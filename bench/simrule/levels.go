package main

import (
	"bytes"
	"fmt"
	"go/format"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/perfmut/perfmut/score"
)

// maxFamily is the largest family the calibrated tables cover; larger
// families fall back to the union-bound shares.
const maxFamily = 30

// A nullSim is a simulation of one test's p-values at a schedule of looks
// under the null on continuous data: for each replicate, the rank of the
// p-value at each look among the attainable ones (pvals[look], ascending).
type nullSim struct {
	looks []int
	pvals [][]float64 // distinct p-values seen at each look, ascending
	ranks [][]uint16  // ranks[rep][look]
	lim   []int       // see closeTests
	beta  float64     // the test's share of alpha being calibrated
}

// simulateNull draws reps replicates of MaxSamples rounds of one baseline
// and one mutant value, uniform on (0, 1) (any continuous distribution
// gives the same ranks), and records the test's p-value at every look.
func simulateNull(test score.Test, looks []int, reps int, seed uint64) *nullSim {
	last := looks[len(looks)-1]
	ps := make([][]float64, reps) // ps[rep][look]
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			memo := map[[2]int]float64{}
			x, y := make([]float64, last), make([]float64, last)
			for r := w; r < reps; r += workers {
				rng := rand.New(rand.NewPCG(seed, uint64(r)))
				for i := range last {
					x[i], y[i] = rng.Float64(), rng.Float64()
				}
				row := make([]float64, len(looks))
				for k, n := range looks {
					row[k] = nullP(test, x[:n], y[:n], memo)
				}
				ps[r] = row
			}
		})
	}
	wg.Wait()
	sim := &nullSim{looks: looks, pvals: make([][]float64, len(looks)), ranks: make([][]uint16, reps)}
	for k := range looks {
		var vs []float64
		for _, row := range ps {
			vs = append(vs, row[k])
		}
		slices.Sort(vs)
		sim.pvals[k] = slices.Compact(vs)
	}
	for r, row := range ps {
		sim.ranks[r] = make([]uint16, len(looks))
		for k, p := range row {
			i, _ := slices.BinarySearch(sim.pvals[k], p)
			sim.ranks[r][k] = uint16(i)
		}
	}
	return sim
}

// nullP is the test's p-value, memoized by sample size and statistic
// (without ties the p-value depends on nothing else).
func nullP(test score.Test, x, y []float64, memo map[[2]int]float64) float64 {
	if test == score.MWU {
		u := 0
		for _, b := range x {
			for _, m := range y {
				if m > b {
					u++
				}
			}
		}
		key := [2]int{len(x), u}
		if p, ok := memo[key]; ok {
			return p
		}
		_, p := test.PValue(x, y)
		memo[key] = p
		return p
	}
	_, p := test.PValue(x, y)
	return p
}

// spendTarget is the cumulative share of a test's alpha the calibration
// aims to have spent by look k of L: half at the first look, the rest in
// equal steps.
func spendTarget(k, L int) float64 {
	if L == 1 {
		return 1
	}
	return 0.5 + 0.5*float64(k)/float64(L-1)
}

// calibrate chooses, for a per-test alpha beta, the rank threshold at every
// look (reject when the p-value's rank is at most it; -1 never rejects),
// keeping the rejection rate within beta less two standard errors of the
// simulation (limit), for tests with too many attainable p-values for
// exhaustive (MWU): at the first look the largest threshold within half of
// limit, at the later looks one common nominal level, the largest that
// fits, then the last look's threshold raised as far as the rest allows,
// then refine. No level exceeds beta. It returns the thresholds.
func (s *nullSim) calibrate(beta, futility float64) []int {
	reps := float64(len(s.ranks))
	s.closeTests(beta, futility)
	limit := beta - 2*math.Sqrt(beta/reps)
	s.beta = beta
	return s.heuristic(limit, beta)
}

// levels returns the p-values of thresholds th (0 for never), a hair
// above, so that the same p-value computed another way (with ties, by the
// conditional count) still compares below it.
func (s *nullSim) levels(th []int) []float64 {
	levels := make([]float64, len(th))
	for k, t := range th {
		if t >= 0 {
			levels[k] = s.pvals[k][t] * (1 + 1e-9)
		}
	}
	return levels
}

// levelCap is how far above beta a level may be in the exhaustive search
// for a family of k tests: with a binding futility stop the closed paths
// spend nothing, so a look's level may exceed the test's share (the rate
// over all looks is what is held to it), up to half as much again, and
// three quarters for a family of one: with every later look at its largest
// attainable level within 1.5 beta (0.0262, 0.0405, 0.0675 at alpha 0.05)
// one KS test spent only 0.816 of alpha, and a mutant of one benchmark
// whose counts barely vary fell below 0.8 alpha; within 1.75 the 20-sample
// look may use 0.0873 (0.0465 of 0.05). Without futility no level exceeds
// beta.
func levelCap(futility float64, k int) float64 {
	switch {
	case futility <= 0:
		return 1
	case k == 1:
		return 1.75
	}
	return 1.5
}

// heuristic is calibrate's search for tests with many attainable p-values.
func (s *nullSim) heuristic(limit, beta float64) []int {
	L := len(s.looks)
	th := make([]int, L)
	th[0] = s.bestLast(th[:1], limit*spendTarget(0, L))
	if L == 1 {
		return th
	}
	var cands []float64
	for k := 1; k < L; k++ {
		for _, p := range s.pvals[k] {
			if p <= limit {
				cands = append(cands, p)
			}
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	at := func(c float64) []int {
		t := slices.Clone(th)
		for k := 1; k < L; k++ {
			i, found := slices.BinarySearch(s.pvals[k], c)
			if !found {
				i--
			}
			t[k] = i
		}
		return t
	}
	// The largest common level c whose rate fits (the rate grows with c).
	lo, hi := -1, len(cands) // cands[lo] fits, cands[hi] does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if s.rate(at(cands[mid])) <= limit {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo >= 0 {
		th = at(cands[lo])
	} else {
		for k := 1; k < L; k++ {
			th[k] = -1
		}
	}
	th[L-1] = s.bestLast(th, limit)
	return s.refine(th, limit, beta)
}

// refine tries moves of up to three attainable values of each middle
// look's threshold, with the last look's raised as far as it fits, and
// returns the combination with the largest last-look level among those
// whose rate is within 3% of beta of the best rate found.
func (s *nullSim) refine(th []int, limit, beta float64) []int {
	L := len(th)
	type cand struct {
		th   []int
		rate float64
	}
	cands := []cand{{th, s.rate(th)}}
	moves := make([]int, L-2)
	var try func(int)
	try = func(i int) {
		if i == len(moves) {
			c := slices.Clone(th)
			for j, m := range moves {
				c[j+1] = max(-1, min(th[j+1]+m, s.maxRank(j+1)))
			}
			c[L-1] = s.bestLast(c, limit)
			if r := s.rate(c); r <= limit {
				cands = append(cands, cand{c, r})
			}
			return
		}
		for m := -3; m <= 3; m++ {
			moves[i] = m
			try(i + 1)
		}
	}
	try(0)
	best := 0.0
	for _, c := range cands {
		best = max(best, c.rate)
	}
	pick := cands[0]
	lastLevel := func(c cand) float64 {
		if t := c.th[L-1]; t >= 0 {
			return s.pvals[L-1][t]
		}
		return 0
	}
	for _, c := range cands {
		if c.rate < best-0.03*beta {
			continue
		}
		if pick.rate < best-0.03*beta || lastLevel(c) > lastLevel(pick) || lastLevel(c) == lastLevel(pick) && c.rate > pick.rate {
			pick = c
		}
	}
	return pick.th
}

// closeTests sets s.lim: for each replicate the last look at which it can
// reject (closeAt).
func (s *nullSim) closeTests(beta, futility float64) {
	s.lim = make([]int, len(s.ranks))
	for r, row := range s.ranks {
		s.lim[r] = closeAt(s.looks, func(k int) float64 { return s.pvals[k][row[k]] }, beta, futility)
	}
}

// closeAt is the last look at which a replicate whose p-value at look k
// is p(k) can reject before the futility stop closes it, as score's Decide
// does: the first look before the last whose conditional power against
// beta is below the bound; the last look when futility is 0.
func closeAt(looks []int, p func(k int) float64, beta, futility float64) int {
	L := len(looks)
	if futility > 0 {
		for k := 0; k < L-1; k++ {
			t := float64(looks[k]) / float64(looks[L-1])
			if score.ConditionalPower(p(k), t, beta) < futility {
				return k
			}
		}
	}
	return L - 1
}

// bestLast returns the largest threshold for the last look of th (the
// earlier ones fixed) whose cumulative rejection rate is at most target.
func (s *nullSim) bestLast(th []int, target float64) int {
	k := len(th) - 1
	hist := make([]int, len(s.pvals[k]))
	crossed := 0
	for r, row := range s.ranks {
		if earlier(row, th[:k], s.lim[r]) {
			crossed++
			continue
		}
		if k <= s.lim[r] {
			hist[row[k]]++
		}
	}
	reps := float64(len(s.ranks))
	best, cum := -1, crossed
	for t, c := range hist {
		cum += c
		if float64(cum)/reps > target || s.pvals[k][t] > s.beta {
			break
		}
		best = t
	}
	return best
}

// rate is the fraction of replicates that reject at some look.
func (s *nullSim) rate(th []int) float64 {
	n := 0
	for r, row := range s.ranks {
		if earlier(row, th, s.lim[r]) {
			n++
		}
	}
	return float64(n) / float64(len(s.ranks))
}

// maxRank is the largest rank at look k whose p-value is at most beta:
// no look's level exceeds the test's share of alpha.
func (s *nullSim) maxRank(k int) int {
	i, found := slices.BinarySearch(s.pvals[k], s.beta)
	if !found {
		i--
	}
	return i
}

// earlier reports whether the replicate rejects at one of the looks of th
// up to lim.
func earlier(row []uint16, th []int, lim int) bool {
	for k, t := range th {
		if k <= lim && int(row[k]) <= t {
			return true
		}
	}
	return false
}

// writeLevels writes score/levels_table.go: calibrated levels for the
// default looks of alpha 0.01, 0.05 and 0.1, every registered test
// (score.Tests).
func writeLevels(out io.Writer, log io.Writer, reps int) error {
	w := new(bytes.Buffer)
	fmt.Fprintf(w, "package score\n\n// Code generated by go run ./bench/simrule -levels -reps %d; DO NOT EDIT.\n\n", reps)
	fmt.Fprintf(w, "// calibratedLevels: see levelTable. Each row is one family size K = 1, 2, ...;\n// the comment gives the simulated rate of one test ever rejecting, against Alpha/K.\nvar calibratedLevels = []levelTable{\n")
	for _, def := range score.Tests() {
		test := def.Name
		for _, alpha := range []float64{0.01, 0.05, 0.1} {
			looks := score.Rule{Alpha: alpha, Test: test}.Looks()
			sim := simulateNull(test, looks, reps, 42)
			// Only the levels of a non-binding futility stop (calibrated
			// without it): score's futility stop never closes a test for
			// good, so these hold for any stop.
			for _, fut := range []float64{0} {
				fmt.Fprintf(w, "\t{Test: %q, Alpha: %v, Futility: %v, Reps: %d, Looks: %#v, PerTest: [][]float64{\n", test, alpha, fut, reps, looks)
				ths, rates := sim.calibrateAll(alpha, fut)
				for k, th := range ths {
					beta := alpha / float64(k+1)
					levels := sim.levels(th)
					fmt.Fprintf(w, "\t\t%s, // K=%d: %.5f of %.5f\n", floats(levels, "%.10g"), k+1, rates[k], beta)
					fmt.Fprintf(log, "%s alpha %v futility %v K %d: rate %.5f of %.5f (%.3f) levels %v\n", test, alpha, fut, k+1, rates[k], beta, rates[k]/beta, levels)
				}
				fmt.Fprintf(w, "\t}, Rates: []float64%s", floats(rates, "%.5f"))
				if pths, prates := sim.paid(alpha, fut); len(pths) > 0 {
					fmt.Fprintf(w, ", Paid: [][]float64{\n")
					for c, th := range pths {
						fmt.Fprintf(w, "\t\t%s, // beside %d: %.5f of %.5f\n", floats(sim.levels(th), "%.10g"), c+1, prates[c], alpha)
						fmt.Fprintf(log, "%s alpha %v futility %v beside %d paid counts: rate %.5f levels %v\n", test, alpha, fut, c+1, prates[c], sim.levels(th))
					}
					fmt.Fprintf(w, "\t}, PaidRates: []float64%s", floats(prates, "%.5f"))
				}
				fmt.Fprintf(w, "},\n")
			}
		}
	}
	fmt.Fprintf(w, "}\n")
	src, err := format.Source(w.Bytes())
	if err != nil {
		return err
	}
	_, err = out.Write(src)
	return err
}

// floats formats xs as a Go []float64 literal's braces, each with format f.
func floats(xs []float64, f string) string {
	var b bytes.Buffer
	b.WriteString("{")
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, f, x)
	}
	b.WriteString("}")
	return b.String()
}

// calibrateAll returns the thresholds of the families of 1 to maxFamily
// tests and their rates: by exhaustive search where it can, else K by K (calibrate).
func (s *nullSim) calibrateAll(alpha, futility float64) ([][]int, []float64) {
	if ths, rates, ok := s.exhaustive(alpha, futility, maxFamily); ok {
		return ths, rates
	}
	var ths [][]int
	var rates []float64
	for k := 1; k <= maxFamily; k++ {
		th := s.calibrate(alpha/float64(k), futility)
		ths = append(ths, th)
		rates = append(rates, s.rate(th))
	}
	return ths, rates
}
