package behave

import (
	"math"
	"sort"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// minMove is the least move of a feature's share (of the CPU time or of
// the allocated bytes) that makes two behaviours differ: 5 percentage
// points.
const minMove = 0.05

// Compare returns the features whose shares differ between the rounds a
// and b: those whose mean share moved by MinMove or more and whose
// two-sided Mann-Whitney test (exact, conditional on ties) rejects at
// alpha after the Holm correction over those features; largest move
// first. A feature absent from a round has share 0 there.
func Compare(a, b []map[string]float64, alpha float64) []results.BehaviourDiff {
	var cand []results.BehaviourDiff
	var ps []float64
	for _, f := range featureNames(a, b) {
		xa, xb := column(a, f), column(b, f)
		d := results.BehaviourDiff{Feature: f, Old: mean(xa), New: mean(xb)}
		if math.Abs(d.New-d.Old) < minMove {
			continue
		}
		_, up := score.OneSidedMWU(xa, xb)
		_, down := score.OneSidedMWU(xb, xa)
		d.P = min(1, 2*min(up, down))
		cand = append(cand, d)
		ps = append(ps, d.P)
	}
	adj := score.Adjust(ps, score.Holm)
	var out []results.BehaviourDiff
	for i, d := range cand {
		if adj[i] <= alpha {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return math.Abs(out[i].New-out[i].Old) > math.Abs(out[j].New-out[j].Old) })
	return out
}

// featureNames lists the features of any round of a or b, sorted.
func featureNames(a, b []map[string]float64) []string {
	set := map[string]bool{}
	for _, rs := range [][]map[string]float64{a, b} {
		for _, r := range rs {
			for f := range r {
				set[f] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// column is feature f's share in each round.
func column(rounds []map[string]float64, f string) []float64 {
	out := make([]float64, len(rounds))
	for i, r := range rounds {
		out[i] = r[f]
	}
	return out
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
