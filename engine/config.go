package engine

import (
	"time"

	"github.com/perfmut/perfmut/mutate"
)

// Config is what an Engine is built from: the module, how its benchmarks
// are built, run and judged, and the functional tests' timeout.
type Config struct {
	Module   mutate.Module
	Packages []*mutate.Package // the loaded packages whose benchmarks it runs
	Measurement
	// MaxBenchmarks measures each mutant on at most this many of the
	// benchmarks that reach its site (0 = all of them): an inert
	// operator's Job may offer more (Job.Pool) of which it chooses.
	MaxBenchmarks int
	Timeout       time.Duration // functional-test timeout; 0 = 10 x the baseline's, at least 10s
}
