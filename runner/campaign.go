package runner

import (
	"fmt"
	"io"
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Isolation modes.
const (
	IsolateOverlay = "overlay" // go build -overlay; the module is only read
	IsolateCopy    = "copy"    // a private copy of the module per worker
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
	Measurement
}

// Measurement is how a campaign builds, runs and judges benchmarks: the
// settings perfmut compare and calibrate share with it.
type Measurement struct {
	// Rule decides, after each round of samples, whether to kill, keep
	// measuring or let the mutant survive (score.Rule.Decide), and breaks
	// the score down at its alpha and correction in the report. Its
	// MaxSamples caps the rounds.
	Rule score.Rule
	// Metric reports whether a benchmark unit (after benchfmt tidying:
	// sec/op, B/op, allocs/op, custom units) is tested; nil means sec/op,
	// B/op and allocs/op.
	Metric func(unit string) bool
	// CustomUnits are the custom units Metric tests (the configuration's
	// metrics:, tidied). A benchmark whose source reports metrics of its
	// own (b.ReportMetric) counts each in DecideAhead's family before its
	// first sample, though its iteration-count run did not report it.
	CustomUnits []string
	// SampleTime is about how long one benchmark sample takes: each
	// benchmark's iteration count N is chosen on the baseline to take that
	// long, and both sides run N iterations (0 = DefaultSampleTime).
	SampleTime time.Duration
	// Benchtime, if not "", overrides SampleTime: "1000x" fixes N for every
	// benchmark; a duration ("100ms") makes samples time-based, as go test
	// runs them (b.N then differs between the sides).
	Benchtime string
	// CensorFactor stops a mutant sample that runs longer than this many
	// times the slowest baseline sample (plus CensorSlack) and records it
	// as censored; 0 = never (the default is set by the command: 3).
	CensorFactor float64
	// SkipBench, if not "", is a -test.skip pattern: benchmarks it matches
	// are never run (for example ones that need a network or take minutes).
	SkipBench string
	// BenchTimeout is the deadline of every baseline benchmark process
	// (listing, coverage, samples); 0 = DefaultBenchTimeout. A baseline
	// benchmark that runs past it is left out of judging, with a warning.
	BenchTimeout time.Duration
	// CPU lists GOMAXPROCS values (go test -cpu): each benchmark that
	// reaches a mutant is measured at each, as a separate benchmark of its
	// family (BenchmarkX-4). Empty: the default GOMAXPROCS only.
	CPU []int
	// Counting, if not nil, counts instructions (-measure instructions):
	// the mutant-benchmark pairs a count sees are measured on
	// instructions/op under valgrind, the others on wall time. nil: wall
	// time only.
	Counting *Counting
	Jobs     int      // parallel builds and functional tests
	Tags     []string // build tags
	Seed     int64    // orders the measurement rounds

	Log      io.Writer // log lines and the progress line; nil = discard
	Progress bool      // Log is a terminal: draw a progress line
	Verbose  bool      // log every command
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

// gcflags returns the go build flags of an optimization level.
func gcflags(level string) []string {
	if level == results.NoOpt {
		return []string{"-gcflags=all=-N -l"}
	}
	return nil
}
