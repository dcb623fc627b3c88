package engine

import (
	"io"
	"regexp"
	"strconv"
	"time"

	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// DefaultBenchTimeout is the default Measurement.BenchTimeout.
const DefaultBenchTimeout = 2 * time.Minute

// Measurement is how an engine builds, runs and judges benchmarks: the
// settings perfmut run, compare and calibrate share.
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

// Counting is how a campaign counts instructions (-measure instructions):
// a mutant-benchmark pair whose operator's cost a count sees
// (mutate.Cost.Counted) is measured in instructions per operation under
// valgrind, the others on wall time (docs/instructions.md).
type Counting struct {
	// Sampler counts; its Env is nil (perfmut's environment).
	Sampler instr.Sampler
	// Version is valgrind's, for the reports' headers.
	Version string
	// MinEffect is the rule's minimum effect for a mutant measured on
	// counts only: instr.MinEffect unless -min-effect was given.
	MinEffect float64
}

// Measures returns what a campaign measures, for its header and log:
// "instructions (valgrind 3.19.0)" or "time".
func (c *Counting) Measures() string {
	if c == nil {
		return "time"
	}
	return "instructions (valgrind " + c.Version + ")"
}

// OnCounts is rule as it decides on instruction counts alone: with c's
// minimum effect (instr.MinEffect unless -min-effect was given), when c
// counts and has one.
func (c *Counting) OnCounts(rule score.Rule) score.Rule {
	if c != nil && c.MinEffect > 0 {
		rule.MinEffect = c.MinEffect
	}
	return rule
}

// WithDefaults is m with the defaults of the settings left at 0:
// DefaultSampleTime, DefaultBenchTimeout and one job.
func (m Measurement) WithDefaults() Measurement {
	if m.SampleTime <= 0 {
		m.SampleTime = DefaultSampleTime
	}
	if m.BenchTimeout <= 0 {
		m.BenchTimeout = DefaultBenchTimeout
	}
	if m.Jobs <= 0 {
		m.Jobs = 1
	}
	return m
}

// RecordSettings records in s what m measures and decides by, as
// report.json and compare.json keep it (resume, merge and -since compare
// it): the rule, the build tags, the sample length or -benchtime, -censor,
// -seed, -cpu and, when m counts, -measure instructions with the counts'
// minimum effect. The other fields of s are the caller's.
func (m Measurement) RecordSettings(s *results.Settings) {
	s.Rule, s.Tags = m.Rule, m.Tags
	s.Benchtime, s.Censor, s.Seed, s.CPU = m.Benchtime, m.CensorFactor, m.Seed, m.CPU
	s.SampleTime = ""
	if m.Benchtime == "" {
		s.SampleTime = m.SampleTime.String()
	}
	s.Measure, s.CountMinEffect = "", 0
	if m.Counting != nil {
		s.Measure, s.CountMinEffect = "instructions", m.Counting.MinEffect
	}
}

// A MetricChoice is the metric a mutant's verdict at a level rests on,
// and why.
type MetricChoice struct {
	Metric string // score.InstructionsPerOp, score.SecPerOp, or both joined by " and "
	// Why names the operator's cost and whether a benchmark is concurrent,
	// e.g. "work: counted" or "contention on a concurrent benchmark: wall time".
	Why string
}

// fixedNRE matches a -benchtime that fixes the iteration count (1000x).
var fixedNRE = regexp.MustCompile(`^([1-9][0-9]*)x$`)

// fixedIters is the iteration count a -benchtime of the form 1000x fixes,
// and whether it fixes one.
func fixedIters(benchtime string) (int, bool) {
	m := fixedNRE.FindStringSubmatch(benchtime)
	if m == nil {
		return 0, false
	}
	n, _ := strconv.Atoi(m[1])
	return n, true
}

// ValidBenchtime reports whether s is a -benchtime go test accepts: a
// positive duration (100ms) or a positive count (1000x); go test rejects
// 0x and durations of 0 or less.
func ValidBenchtime(s string) bool {
	d, err := time.ParseDuration(s)
	return (err == nil && d > 0) || fixedNRE.MatchString(s)
}
