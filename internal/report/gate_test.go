package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
)

func TestGate(t *testing.T) {
	rep := fixture(t) // opt 5/11 = 45.5%, noopt 6/11 = 54.5%
	for _, tc := range []struct {
		min    float64
		levels []string
		below  string // "" = passes; else the error text
	}{
		{0.45, nil, ""},
		{0.5, []string{results.NoOpt}, ""},
		{0.5, nil, "mutation score below -min-score 50.0%: opt 45.5% (5 of 11 killed)"},
		{0.55, []string{results.Opt, results.NoOpt}, "mutation score below -min-score 55.0%: opt 45.5% (5 of 11 killed), noopt 54.5% (6 of 11 killed)"},
		{0.6, []string{results.NoOpt}, "mutation score below -min-score 60.0%: noopt 54.5% (6 of 11 killed)"},
		{0, nil, ""},
	} {
		err := Gate(rep, tc.min, tc.levels)
		if tc.below == "" {
			if err != nil {
				t.Errorf("Gate(%v, %v) = %v, want pass", tc.min, tc.levels, err)
			}
			continue
		}
		var b *belowError
		if !errors.As(err, &b) || err.Error() != tc.below || !isBelow(err) {
			t.Errorf("Gate(%v, %v) = %v, want %q", tc.min, tc.levels, err, tc.below)
		}
	}
	for _, tc := range []struct {
		min    float64
		levels []string
		want   string
	}{
		{1.5, nil, "not a fraction in [0, 1]"},
		{0.5, []string{"O2"}, `no results at level "O2" (it has opt, noopt)`},
	} {
		err := Gate(rep, tc.min, tc.levels)
		if err == nil || isBelow(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Gate(%v, %v) = %v, want error %q", tc.min, tc.levels, err, tc.want)
		}
	}
	// Nothing valid in scope passes: a -changed-since run that touched
	// nothing mutable must not fail the build.
	empty := &results.Report{Schema: results.Schema, Score: map[string]results.LevelScore{results.Opt: {}}}
	if err := Gate(empty, 0.9, nil); err != nil {
		t.Errorf("empty report: %v", err)
	}
}

func TestParseMinScoreAndLevels(t *testing.T) {
	for in, want := range map[string]float64{"0.8": 0.8, "80%": 0.8, "0": 0, "1": 1, "100%": 1, " 0.75 ": 0.75} {
		if got, err := ParseMinScore(in); err != nil || got != want {
			t.Errorf("ParseMinScore(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"80", "-0.1", "x", "", "120%", "NaN"} {
		if _, err := ParseMinScore(in); err == nil || !strings.Contains(err.Error(), "want a fraction in [0, 1]") {
			t.Errorf("ParseMinScore(%q) error %v", in, err)
		}
	}
	if l, err := ParseLevels("noopt,opt,noopt"); err != nil || strings.Join(l, ",") != "noopt,opt" {
		t.Errorf("ParseLevels = %v, %v", l, err)
	}
	if l, err := ParseLevels("both"); err != nil || l != nil {
		t.Errorf("ParseLevels(both) = %v, %v", l, err)
	}
	if _, err := ParseLevels("opt,O3"); err == nil || !strings.Contains(err.Error(), `unknown level "O3"`) {
		t.Errorf("ParseLevels(opt,O3) error %v", err)
	}
}

// TestGateUndecided: more undecided mutants than allowed at a level is an
// *undecidedError (exit 3, as a score below -min-score); -1 is no limit.
func TestGateUndecided(t *testing.T) {
	rep := fixture(t) // 1 undecided at opt, 1 at noopt
	for _, tc := range []struct {
		max    int
		levels []string
		want   string // "" = passes
	}{
		{-1, nil, ""},
		{1, nil, ""},
		{0, nil, "more undecided mutants than -max-undecided 0: opt 1, noopt 1 (too noisy to decide; perfmut report lists them)"},
		{0, []string{results.NoOpt}, "more undecided mutants than -max-undecided 0: noopt 1 (too noisy to decide; perfmut report lists them)"},
	} {
		err := GateUndecided(rep, tc.max, tc.levels)
		if tc.want == "" {
			if err != nil {
				t.Errorf("GateUndecided(%d, %v) = %v, want pass", tc.max, tc.levels, err)
			}
			continue
		}
		var u *undecidedError
		if !errors.As(err, &u) || err.Error() != tc.want || !IsThreshold(err) || isBelow(err) {
			t.Errorf("GateUndecided(%d, %v) = %v, want %q", tc.max, tc.levels, err, tc.want)
		}
	}
	if err := GateUndecided(rep, 0, []string{"O2"}); err == nil || IsThreshold(err) {
		t.Errorf("unknown level: %v, want an error that is not a gate's verdict", err)
	}
}
