package speedgun

import (
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
)

// Config says what to generate for and how.
type Config struct {
	// Engine builds the driver (Engine.GoTestC, its GOTMPDIR) and logs;
	// Generate's temporary files go under its Tmp and are removed.
	Engine *engine.Engine
	// Dir is where go test -c runs: the module root or a copy of it.
	Dir string
	// Package is the package to generate for, loaded by mutate.Load
	// (its types and syntax are needed).
	Package *mutate.Package
	// Overlay replaces files in every build (absolute path -> content).
	Overlay map[string][]byte
	// Focus are functions called more often, named as report.json names
	// them ("New", "(*Store).Set"): e.g. the ones changed since a revision.
	Focus []string
	// Methods, if not nil, restricts each type (by name) to these exported
	// methods: compare's methods both versions export. A type absent
	// from a non-nil Methods is not generated for.
	Methods map[string][]string
	// Constructors, if not nil, are the package-level functions that may
	// make an instance (compare: those both versions export alike); the
	// zero value is always tried.
	Constructors []string
	// Seed makes the generation reproducible.
	Seed int64
	// MinOpTime is SpeedGun's t_min: one op, one execution of a suffix,
	// lasts at least this long (default 5µs).
	MinOpTime time.Duration
	// SampleTime is SpeedGun's steady-state time t_s, the campaign's
	// sample time (default engine.DefaultSampleTime).
	SampleTime time.Duration
	// MinReps is SpeedGun's r_min: at least this many ops fit in
	// SampleTime (default 100).
	MinReps int
	// Parallelism is the benchmark's b.SetParallelism: goroutines per
	// GOMAXPROCS, and the number of distinct suffixes (default 4).
	Parallelism int
	// Latency, if set, is a unit pQ-ns/op (e.g. p99.95-ns/op, one of the
	// campaign's metrics): the benchmark also times each op and reports
	// that quantile of their latencies, where a lock held by a goroutine
	// the scheduler preempted shows on a loaded machine.
	Latency string
	// CandidateTimeout is how long one candidate may run before it counts
	// as deadlocked and is dropped (default 2s).
	CandidateTimeout time.Duration
}

// Result is what Generate made.
type Result struct {
	Benchmarks []Benchmark
	// Skipped are the thread-safe types (and the methods of generated
	// ones) not generated for, with the reason.
	Skipped []Skipped
	// Builds counts the go test -c runs Generate paid.
	Builds int
	// Dropped counts the candidate sequences the feedback dropped.
	Dropped int
	// Drops are the reasons of the dropped candidates, one line each
	// (at most 10 per type).
	Drops []string
}

// A Benchmark is one generated concurrent benchmark.
type Benchmark struct {
	Name string // BenchmarkConcurrentStore, unique in the package
	Type string // the shared instance's type: "*Store", "*LRU[int]"
	// Covers are the functions it calls, named as report.json names
	// them: the constructor ("New") and the methods ("(*Store).Set").
	Covers []string
	// Focus are the Covers that were focus methods.
	Focus []string
	// Source is one gofmt'ed function declaration with its doc comment,
	// for a _test.go file of the package itself (package Package.Name).
	Source string
	// Imports are the import paths Source needs.
	Imports []string
	// Calls is the calls per op (s² of SpeedGun's suffix of length s
	// repeated s times).
	Calls int
	// NsPerOp is the driver's measurement of one op at that length.
	NsPerOp float64
}

// Skipped is a type or method not generated for.
type Skipped struct {
	Type   string // "*Store"; "(*Store).Watch" for a method
	Reason string
}

const (
	defaultMinOpTime        = 5 * time.Microsecond
	defaultMinReps          = 100
	defaultParallelism      = 4
	defaultCandidateTimeout = 2 * time.Second
)

// withDefaults fills in the zero fields.
func (c Config) withDefaults() Config {
	if c.MinOpTime <= 0 {
		c.MinOpTime = defaultMinOpTime
	}
	if c.SampleTime <= 0 {
		c.SampleTime = engine.DefaultSampleTime
	}
	if c.MinReps <= 0 {
		c.MinReps = defaultMinReps
	}
	if c.Parallelism <= 0 {
		c.Parallelism = defaultParallelism
	}
	if c.CandidateTimeout <= 0 {
		c.CandidateTimeout = defaultCandidateTimeout
	}
	return c
}
