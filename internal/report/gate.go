package report

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/perfmut/perfmut/results"
)

// A belowError is Gate's verdict that the score is below the threshold at
// one or more levels; callers exit with status 3 on it.
type belowError struct {
	Min    float64
	Levels []levelBelow
}

// levelBelow is one level that fails a gate: its score is below the
// threshold, or it has too many undecided mutants.
type levelBelow struct {
	Level string
	results.LevelScore
}

func (e *belowError) Error() string {
	var parts []string
	for _, l := range e.Levels {
		parts = append(parts, fmt.Sprintf("%s %s (%d of %d killed)", l.Level, pct(l.Score), l.Killed, l.Valid))
	}
	return fmt.Sprintf("mutation score below -min-score %s: %s", pct(e.Min), strings.Join(parts, ", "))
}

// Gate checks the mutation score of each of levels (nil = every level in
// the report) against minScore, a fraction in [0, 1]. It returns nil when
// every level reaches it, a *belowError when one does not, and another
// error for bad arguments (a level the report does not have, minScore out
// of range). A level without valid mutants (nothing in scope, e.g. a
// -changed-since run that touched no mutable code) passes.
func Gate(rep *results.Report, minScore float64, levels []string) error {
	if !(minScore >= 0 && minScore <= 1) {
		return fmt.Errorf("minimum score %v is not a fraction in [0, 1]", minScore)
	}
	failing, err := failingLevels(rep, levels, func(s results.LevelScore) bool { return s.Valid > 0 && s.Score < minScore })
	if err != nil || len(failing) == 0 {
		return err
	}
	return &belowError{Min: minScore, Levels: failing}
}

// failingLevels returns the levels of levels (nil = every level in the
// report) whose score fails, or an error naming a level the report does
// not have.
func failingLevels(rep *results.Report, levels []string, fails func(results.LevelScore) bool) ([]levelBelow, error) {
	have := rep.Levels()
	if len(levels) == 0 {
		levels = have
	}
	var out []levelBelow
	for _, l := range levels {
		if !slices.Contains(have, l) {
			return nil, fmt.Errorf("the report has no results at level %q (it has %s)", l, strings.Join(have, ", "))
		}
		if s := levelScore(rep, l); fails(s) {
			out = append(out, levelBelow{l, s})
		}
	}
	return out, nil
}

// An undecidedError is GateUndecided's verdict that more mutants than
// allowed are undecided at one or more levels; callers exit with status 3
// on it, as on a *belowError.
type undecidedError struct {
	Max    int
	Levels []levelBelow
}

func (e *undecidedError) Error() string {
	var parts []string
	for _, l := range e.Levels {
		parts = append(parts, fmt.Sprintf("%s %d", l.Level, l.Undecided))
	}
	return fmt.Sprintf("more undecided mutants than -max-undecided %d: %s (too noisy to decide; perfmut report lists them)", e.Max, strings.Join(parts, ", "))
}

// GateUndecided checks the count of undecided mutants of each of levels
// (nil = every level in the report) against maxUndecided. It returns nil
// when no level has more, an *undecidedError when one does, and another
// error for a level the report does not have. A negative maxUndecided is
// no limit.
func GateUndecided(rep *results.Report, maxUndecided int, levels []string) error {
	if maxUndecided < 0 {
		return nil
	}
	failing, err := failingLevels(rep, levels, func(s results.LevelScore) bool { return s.Undecided > maxUndecided })
	if err != nil || len(failing) == 0 {
		return err
	}
	return &undecidedError{Max: maxUndecided, Levels: failing}
}

// IsThreshold reports whether err is (or wraps) a gate's verdict: a
// *belowError or an *undecidedError (exit status 3).
func IsThreshold(err error) bool {
	var u *undecidedError
	return isBelow(err) || errors.As(err, &u)
}

// isBelow reports whether err is (or wraps) a *belowError.
func isBelow(err error) bool {
	var b *belowError
	return errors.As(err, &b)
}

// ParseMinScore parses a -min-score value: a fraction such as 0.8 or a
// percentage such as 80%.
func ParseMinScore(s string) (float64, error) {
	v, ok := parseFraction(s)
	if !ok || v > 1 {
		return 0, fmt.Errorf("-min-score %q: want a fraction in [0, 1] such as 0.8, or a percentage such as 80%%", s)
	}
	return v, nil
}

// ParseSlowdown parses a -max-slowdown value: a percentage (5%) or a
// fraction (0.05), at least 0.
func ParseSlowdown(s string) (float64, error) {
	v, ok := parseFraction(s)
	if !ok {
		return 0, fmt.Errorf("-max-slowdown %q: want a percentage such as 5%%, or a fraction such as 0.05", s)
	}
	return v, nil
}

// parseFraction parses a percentage (80%) or a fraction (0.8), at least 0.
func parseFraction(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	scale := 1.0
	if strings.HasSuffix(t, "%") {
		t, scale = strings.TrimSuffix(t, "%"), 100
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 1) {
		return 0, false
	}
	return v / scale, true
}

// ParseLevels parses a -levels value: a comma-separated list of opt and
// noopt; "" or "both" means every level in the report (nil).
func ParseLevels(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "both" || s == "all" {
		return nil, nil
	}
	var out []string
	for _, l := range strings.Split(s, ",") {
		l = strings.TrimSpace(l)
		if l != results.Opt && l != results.NoOpt {
			return nil, fmt.Errorf("-levels %q: unknown level %q; use opt, noopt or opt,noopt", s, l)
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out, nil
}
