package results

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/score"
)

// Levels returns the optimization levels that appear in the report, in
// the order opt, noopt, then any other in name order.
func (r *Report) Levels() []string {
	seen := map[string]bool{}
	for l := range r.Score {
		seen[l] = true
	}
	for _, m := range r.Mutants {
		for l := range m.Results {
			seen[l] = true
		}
	}
	var out []string
	for _, l := range []string{Opt, NoOpt} {
		if seen[l] {
			out = append(out, l)
			delete(seen, l)
		}
	}
	var rest []string
	for l := range seen {
		rest = append(rest, l)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// Status returns m's status at level, or "" when it has no result there.
func (m *Mutant) Status(level string) score.Status {
	if r := m.Results[level]; r != nil {
		return r.Status
	}
	return ""
}

// AnyStatus reports whether m has status s at one of levels.
func (m *Mutant) AnyStatus(levels []string, s score.Status) bool {
	for _, l := range levels {
		if m.Status(l) == s {
			return true
		}
	}
	return false
}

// CheckLevels says which of levels (from ParseLevels) the report has no
// results at.
func (r *Report) CheckLevels(levels []string) error {
	for _, l := range levels {
		if !slices.Contains(r.Levels(), l) {
			return fmt.Errorf("-levels: the report has no results at level %s (it has %s)", l, strings.Join(r.Levels(), ", "))
		}
	}
	return nil
}

// Rule returns the kill rule the report was decided with, with its
// defaults filled in and the campaign's seed (a minimum effect of 0, from
// reports before it had a default, was off).
func (r *Report) Rule() score.Rule {
	rule := r.Settings.Rule
	rule.Seed = r.Settings.Seed
	if rule.MinEffect == 0 {
		rule.MinEffect = 1
	}
	return rule.WithDefaults()
}
