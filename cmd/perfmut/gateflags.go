package main

import (
	"flag"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/results"
)

// gateFlags are the flags of the gate that run and report apply to a
// finished campaign (exit status 3 when it fails), registered once, here.
type gateFlags struct {
	minScore     string
	maxUndecided int
}

// register registers -min-score and -max-undecided on fs.
func (g *gateFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.minScore, "min-score", "", "exit with status 3 if the mutation score at a level is below this `fraction` (0.8) or percentage (80%)")
	fs.IntVar(&g.maxUndecided, "max-undecided", -1, "exit with status 3 if more than `n` mutants at a level are undecided (measured to -max-samples, too noisy to decide); -1 = no limit")
}

// check parses the flags; minScore is -1 without -min-score.
func (g *gateFlags) check() (minScore float64, err error) {
	if g.maxUndecided < -1 {
		return 0, inputerr.Errorf("bad -max-undecided %d: want a count of mutants, or -1 for no limit", g.maxUndecided)
	}
	if g.minScore == "" {
		return -1, nil
	}
	if minScore, err = report.ParseMinScore(g.minScore); err != nil {
		return 0, &inputerr.Error{Err: err}
	}
	return minScore, nil
}

// apply gates rep at levels (nil = all): a failing gate is exit status 3,
// a level the report lacks bad usage. The score is checked first.
func (g *gateFlags) apply(rep *results.Report, minScore float64, levels []string) error {
	if minScore >= 0 {
		if err := report.Gate(rep, minScore, levels); err != nil {
			return gateErr(err)
		}
	}
	return gateErr(report.GateUndecided(rep, g.maxUndecided, levels))
}

// gateErr is a gate's error as the command returns it.
func gateErr(err error) error {
	switch {
	case err == nil:
		return nil
	case report.IsThreshold(err):
		return &exitErr{exitThreshold, err}
	}
	return &inputerr.Error{Err: err}
}
