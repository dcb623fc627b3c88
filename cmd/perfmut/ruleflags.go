package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/score"
)

// ruleFlags are the flags of the kill rule (score.Rule): rule builds it
// from them. -alpha, -max-samples and -test are registered (register) and
// checked (check) here for every command that takes them: run, calibrate,
// generate and compare, which apply the rule, and sensitivity, whose map is
// for a campaign that applies it.
type ruleFlags struct {
	alpha      float64
	correction string
	test       string
	maxSamples int
	minSamples int
	minEffect  float64 // 0 = off
	margin     float64 // 0 = the default (score.Rule.Margin), negative = off
	futility   float64 // 0 = no futility stop
}

// ruleHelp is what a command's help says of -alpha, -max-samples and -test.
type ruleHelp struct{ alpha, maxSamples, test string }

// applyRuleHelp is the help of the commands that apply the rule.
func applyRuleHelp() ruleHelp {
	return ruleHelp{
		alpha:      "false-kill (compare: false-change) rate over all looks of the early-stopping rule",
		maxSamples: "samples each of baseline and mutant (compare: OLD and NEW) at most",
		test:       "two-sample `test` of the kill rule: " + testNames() + " (docs/statistics.md compares them)",
	}
}

// mapRuleHelp is the help of perfmut sensitivity, whose map is for a
// campaign that applies the rule.
func mapRuleHelp() ruleHelp {
	return ruleHelp{
		alpha:      "the campaign's false-kill rate (the level of the detectable ratio)",
		maxSamples: "the campaign's sample budget: each benchmark's detectable ratio is for this many samples each side",
		test:       "the campaign's two-sample `test`: " + testNames(),
	}
}

// register registers -alpha, -max-samples and -test on fs with the help h.
func (f *ruleFlags) register(fs *flag.FlagSet, h ruleHelp) {
	fs.Float64Var(&f.alpha, "alpha", score.DefaultAlpha, h.alpha)
	fs.IntVar(&f.maxSamples, "max-samples", score.DefaultMaxSamples, h.maxSamples)
	fs.StringVar(&f.test, "test", string(score.KS), h.test)
}

// check checks -alpha, -max-samples and -test and returns the test; bad
// values are *inputerr.Errors.
func (f *ruleFlags) check() (score.Test, error) {
	test, err := score.ParseTest(f.test)
	switch {
	case err != nil:
		return "", inputerr.Errorf("-test: %v", err)
	case f.maxSamples < 1:
		return "", inputerr.Errorf("-max-samples %d out of range: want at least 1, e.g. 30", f.maxSamples)
	case !(f.alpha > 0 && f.alpha < 1):
		return "", inputerr.Errorf("-alpha %v out of range: want a level between 0 and 1, e.g. 0.05", f.alpha)
	}
	return test, nil
}

// testNames lists the registered two-sample tests (score.Tests) for -test's
// help: "ks (KS) or mwu (MWU)".
func testNames() string {
	var names []string
	for _, t := range score.Tests() {
		names = append(names, fmt.Sprintf("%s (%s)", t.Name, t.Label))
	}
	return strings.Join(names, " or ")
}
