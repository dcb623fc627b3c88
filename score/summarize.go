package score

import (
	"cmp"
	"slices"
)

// Add counts one mutant with status s and updates Valid and the scores.
// Statuses other than the eight it counts (not Equivalent) are not counted.
func (c *Counts) Add(s Status) {
	switch s {
	case Killed:
		c.Killed++
	case Survived:
		c.Survived++
	case NoCoverage:
		c.NoCoverage++
	case CompileError:
		c.CompileError++
	case FNE:
		c.FNE++
	case Timeout:
		c.Timeout++
	case Crash:
		c.Crash++
	case Undecided:
		c.Undecided++
	}
	c.Valid = c.Killed + c.Survived + c.NoCoverage
	c.Score, c.CoveredScore = 0, 0
	if c.Valid > 0 {
		c.Score = float64(c.Killed) / float64(c.Valid)
	}
	if covered := c.Killed + c.Survived; covered > 0 {
		c.CoveredScore = float64(c.Killed) / float64(covered)
	}
}

// CountStatuses counts statuses into Counts, with the scores: Score is the
// paper's Eq. (1), killed / (killed + survived + no-coverage), and
// CoveredScore is killed / (killed + survived); each is 0 when its
// denominator is.
func CountStatuses(statuses []Status) Counts {
	var c Counts
	for _, s := range statuses {
		c.Add(s)
	}
	return c
}

// The dimensions of Summary rows (Row.Dimension), in row order.
const (
	DimLevel    = "level"
	DimOperator = "operator"
	DimQuadrant = "quadrant"
	DimPackage  = "package"
	DimMetric   = "metric"
)

// fixedAlphas are the levels every Summary reports besides the run's alpha
// (the paper's Fig. 4).
func fixedAlphas() []float64 { return []float64{0.01, 0.05, 0.1} }

func dimensions() []string {
	return []string{DimLevel, DimOperator, DimQuadrant, DimPackage, DimMetric}
}

// Summarize breaks the mutation score down by optimization level, operator,
// quadrant, package and metric, at the run's alpha and at 0.01, 0.05 and
// 0.1 (the paper's Fig. 4).
//
// Rows come ordered by alpha (ascending), then dimension (level, operator, quadrant, package, metric),
// then level, then key (both sorted); every row is one group at one level.
// A "level" row's key is the level itself. A "metric" row counts each mutant
// as if that metric were the only one: killed when one of its tests on the
// metric rejects, survived when it was tested but none of those did; other
// statuses (no-coverage, compile-error, ...) are counted as they are, so
// every metric row has the same denominator as its level row.
//
// At the run's alpha the rows use the recorded statuses and Reject flags:
// exactly what the run decided. At another alpha a, a killed or survived
// mutant is re-decided from its recorded tests: the raw p-values are
// adjusted again with correction c over the mutant's tests that can reach
// the level (Tarone's reduction by their PMin, see AdjustFamily; a test
// that was out of the mutant's family, fixed at its first look, stays
// out), and a test
// rejects when its adjusted p-value is at most Threshold*a/alpha (the
// rule's share of alpha at the look that decided, the largest of the
// tests', scaled to a; a itself when every Threshold is 0) and it is not BelowMinEffect. Early stopping only
// recorded the look at which the run stopped, so this is an approximation:
// at a smaller alpha, a mutant killed at an early look counts as survived
// though the run would have gone on sampling (a lower bound on the score);
// at a larger alpha, a survivor is judged on its last look only. Mutants
// without tests keep their status at every alpha. An empty c means Holm.
func Summarize(outcomes []Outcome, alpha float64, c Correction) Summary {
	alphas := []float64{}
	if alpha > 0 && alpha < 1 {
		alphas = append(alphas, alpha)
	}
	for _, a := range fixedAlphas() {
		if !slices.Contains(alphas, a) {
			alphas = append(alphas, a)
		}
	}
	slices.Sort(alphas)
	sum := Summary{Alpha: alpha, Alphas: alphas, Rows: []Row{}}
	if c == "" {
		c = Holm
	}

	var metrics []string
	for _, o := range outcomes {
		for _, t := range o.Tests {
			if !slices.Contains(metrics, t.Metric) {
				metrics = append(metrics, t.Metric)
			}
		}
	}
	slices.Sort(metrics)

	for _, a := range alphas {
		// The status and the metrics that killed, per outcome, at a.
		statuses := make([]Status, len(outcomes))
		killers := make([][]string, len(outcomes))
		for i, o := range outcomes {
			statuses[i], killers[i] = decideAt(o, a, alpha, c)
		}
		for _, dim := range dimensions() {
			groups := map[[2]string]*Counts{} // level, key
			add := func(level, key string, s Status) {
				g := groups[[2]string{level, key}]
				if g == nil {
					g = new(Counts)
					groups[[2]string{level, key}] = g
				}
				g.Add(s)
			}
			for i, o := range outcomes {
				switch dim {
				case DimLevel:
					add(o.Level, o.Level, statuses[i])
				case DimOperator:
					add(o.Level, o.Operator, statuses[i])
				case DimQuadrant:
					add(o.Level, o.Quadrant, statuses[i])
				case DimPackage:
					add(o.Level, o.Package, statuses[i])
				case DimMetric:
					for _, m := range metrics {
						s := statuses[i]
						if s == Killed && !slices.Contains(killers[i], m) {
							s = Survived
						}
						add(o.Level, m, s)
					}
				}
			}
			keys := make([][2]string, 0, len(groups))
			for k := range groups {
				keys = append(keys, k)
			}
			slices.SortFunc(keys, func(x, y [2]string) int {
				if x[0] != y[0] {
					return cmp.Compare(x[0], y[0])
				}
				return cmp.Compare(x[1], y[1])
			})
			for _, k := range keys {
				sum.Rows = append(sum.Rows, Row{Dimension: dim, Key: k[1], Level: k[0], Alpha: a, Counts: *groups[k]})
			}
		}
	}
	return sum
}

// decideAt returns o's status at level a and the metrics of its rejecting
// tests. See Summarize.
func decideAt(o Outcome, a, runAlpha float64, c Correction) (Status, []string) {
	if (o.Status != Killed && o.Status != Survived) || len(o.Tests) == 0 {
		return o.Status, nil
	}
	var killers []string
	if a == runAlpha {
		for _, t := range o.Tests {
			if t.Reject && !slices.Contains(killers, t.Metric) {
				killers = append(killers, t.Metric)
			}
		}
		return o.Status, killers
	}
	ps, pmins := make([]float64, len(o.Tests)), make([]float64, len(o.Tests))
	level := a
	top := 0.0 // the largest threshold: the family's, rather than the late counts'
	for i, t := range o.Tests {
		ps[i], pmins[i] = t.P, t.PMin
		top = max(top, t.Threshold)
	}
	if top > 0 && runAlpha > 0 {
		level = top * a / runAlpha
	}
	// A test left out although its values could reach the run's per-test
	// level (the threshold over the family's size) was out of the
	// mutant's family, fixed at its first look: it stays out.
	family := 0
	for _, t := range o.Tests {
		if !t.Excluded {
			family++
		}
	}
	for i, t := range o.Tests {
		if t.Excluded && t.PMin > 0 && t.PMin <= t.Threshold/float64(max(family, 1)) {
			pmins[i] = 1
		}
	}
	adj, _ := AdjustFamily(ps, pmins, level, c)
	for i, t := range o.Tests {
		if adj[i] <= level && !t.BelowMinEffect && !slices.Contains(killers, t.Metric) {
			killers = append(killers, t.Metric)
		}
	}
	if len(killers) > 0 {
		return Killed, killers
	}
	return Survived, nil
}
