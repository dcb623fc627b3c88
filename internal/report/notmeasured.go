package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// notMeasured is the count, per operator and level, of the mutants the
// compiler made equivalent to the baseline and of those that compiled to
// another mutant's code (duplicates): what each level removes before
// measurement. Only operators with such mutants are listed.
type notMeasured struct {
	ops    []string
	equiv  map[[2]string]int // operator, level
	dups   map[[2]string]int
	reused map[string]int // by level: results taken from an earlier campaign
}

func countNotMeasured(rep *results.Report, lv []string) notMeasured {
	n := notMeasured{equiv: map[[2]string]int{}, dups: map[[2]string]int{}, reused: map[string]int{}}
	for _, m := range rep.Mutants {
		for _, l := range lv {
			r := m.Results[l]
			if r == nil {
				continue
			}
			k := [2]string{m.Operator, l}
			if r.Status == score.Equivalent {
				n.equiv[k]++
			}
			if r.DuplicateOf != "" {
				n.dups[k]++
			}
			if (r.Status == score.Equivalent || r.DuplicateOf != "") && !slices.Contains(n.ops, m.Operator) {
				n.ops = append(n.ops, m.Operator)
			}
			if r.Reused {
				n.reused[l]++
			}
		}
	}
	slices.Sort(n.ops)
	return n
}

// rows is the table: a header, then per operator "equivalent/duplicates" per level.
func (n notMeasured) rows(lv []string) [][]string {
	rows := [][]string{append([]string{"operator"}, lv...)}
	for _, op := range n.ops {
		row := []string{op}
		for _, l := range lv {
			row = append(row, fmt.Sprintf("%d/%d", n.equiv[[2]string{op, l}], n.dups[[2]string{op, l}]))
		}
		rows = append(rows, row)
	}
	return rows
}

// reusedLine is "Reused from an earlier campaign (-since): opt 40, noopt 38", or "".
func (n notMeasured) reusedLine(lv []string) string {
	var parts []string
	for _, l := range lv {
		if n.reused[l] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", l, n.reused[l]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Reused from an earlier campaign (-since), nothing they depend on changed: " + strings.Join(parts, ", ")
}
