package score

import (
	"fmt"
	"math"
	"slices"
)

// A Correction is a multiple-comparison correction over one mutant's tests
// (every benchmark and metric that reaches it).
type Correction string

// The corrections.
const (
	// None kills when any test rejects at alpha, as the SlowCoach paper
	// does; with many tests this inflates false kills.
	None Correction = "none"
	// Bonferroni multiplies every p-value by the number of tests.
	Bonferroni Correction = "bonferroni"
	// Holm is the Holm-Bonferroni step-down procedure: as strict as
	// Bonferroni on the smallest p-value, less so on the others, and still
	// controls the family-wise error rate. The default.
	Holm Correction = "holm"
)

// ParseCorrection parses a -correction flag value.
func ParseCorrection(s string) (Correction, error) {
	for _, c := range []Correction{None, Bonferroni, Holm} {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown correction %q (want none, bonferroni or holm)", s)
}

// Adjust returns the adjusted p-values of one family of tests, in the order
// of ps, which it does not modify: a test rejects at level alpha when its
// adjusted p-value is at most alpha. Holm's adjusted p-values are made
// monotone (a test with a smaller raw p never gets a larger adjusted p), so
// the rule "reject when adjusted p <= alpha" is the step-down procedure.
// Adjusted values are capped at 1. An unknown correction panics.
func Adjust(ps []float64, c Correction) []float64 {
	k := float64(len(ps))
	adj := make([]float64, len(ps))
	switch c {
	case None:
		copy(adj, ps)
	case Bonferroni:
		for i, p := range ps {
			adj[i] = math.Min(1, p*k)
		}
	case Holm:
		order := make([]int, len(ps))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case ps[a] < ps[b]:
				return -1
			case ps[a] > ps[b]:
				return 1
			}
			return 0
		})
		running := 0.0
		for rank, i := range order {
			running = math.Max(running, math.Min(1, (k-float64(rank))*ps[i]))
			adj[i] = running
		}
	default:
		panic(fmt.Sprintf("score.Adjust: unknown correction %q", c))
	}
	return adj
}
