package runner

import (
	"fmt"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// Isolation modes.
const (
	IsolateOverlay = "overlay" // go build -overlay; the module is only read
	isolateCopy    = "copy"    // a private copy of the module per worker
)

// Campaign is one perfmut run: what to mutate and how to measure it.
type Campaign struct {
	Module   mutate.Module
	Packages []*mutate.Package // the loaded packages (mutated ones and their importers)
	Mutants  []mutate.Mutant   // already sampled / sharded

	// Overlay returns the files that building m replaces or adds
	// (absolute path -> content).
	Overlay func(mutate.Mutant) (map[string][]byte, error)
	// Diff returns m's unified diff for the report; nil for none.
	Diff func(mutate.Mutant) (string, error)
	// KeepEquivalent measures mutants whose compiled code is the same as
	// the baseline's instead of calling them equivalent (calibration's
	// trials are such mutants on purpose).
	KeepEquivalent bool
	Levels         []string // results.Opt and/or results.NoOpt
	// Infer runs the smallest injection of a sized operator at each site
	// first and, when it is killed, records the larger ones at the site as
	// killed, inferred, without measuring them (they are still built and
	// tested when tests run on them: a larger injection can make the tests
	// time out; with no test to run they are not built). A sleep follows
	// a far cheaper spin-loop at the same loop (see subsumers).
	Infer bool
	// MaxBenchmarks measures each mutant on at most this many of the
	// benchmarks that reach its site, the hottest ones; 0 = all of them.
	MaxBenchmarks int
	Timeout       time.Duration // functional-test timeout; 0 = max(10 x baseline test time, 10s)
	// FullFilter runs every test of every package that imports a mutated
	// one on each mutant, as go test would, instead of only the tests whose
	// baseline coverage reaches the mutant's site, and also runs the tests
	// of inert operators' mutants (mutate.Operator.Inert): for modules whose
	// tests depend on timing.
	FullFilter bool
	Isolate    string // IsolateOverlay (default) or IsolateCopy
	Out        string // results directory
	Resume     bool   // continue the journal in Out
	// Since, if not "", is an earlier campaign's results directory: a
	// mutant's result there is reused when the Go version, the machine,
	// the settings that affect verdicts and the packages it depends on are
	// unchanged (see results.Inputs); the others run.
	Since string
	// Settings records what the command was asked (patterns, -opt,
	// -sample, -shard, -operators, -changed-since); Run fills in the rest
	// from the Campaign itself, so that what resume and merge compare is
	// what was used.
	Settings results.Settings

	// Measurement is how benchmarks are built, run and judged: what
	// perfmut compare and calibrate share with a campaign.
	engine.Measurement
}

// ParseOpt turns -opt both|on|off into the levels to run.
func ParseOpt(s string) ([]string, error) {
	switch s {
	case "both", "":
		return []string{results.Opt, results.NoOpt}, nil
	case "on":
		return []string{results.Opt}, nil
	case "off":
		return []string{results.NoOpt}, nil
	}
	return nil, fmt.Errorf("bad -opt %q: want both, on or off", s)
}

// config is the engine configuration of c.
func (c *Campaign) config() engine.Config {
	return engine.Config{Module: c.Module, Packages: c.Packages, Measurement: c.Measurement, MaxBenchmarks: c.MaxBenchmarks, Timeout: c.Timeout}
}

// untested reports whether m runs no tests: its operator is inert and the
// campaign does not run every test on every mutant.
func (c *Campaign) untested(m mutate.Mutant) bool {
	full := c.FullFilter || c.Isolate == isolateCopy
	return m.Op != nil && m.Op.Inert && !full
}
