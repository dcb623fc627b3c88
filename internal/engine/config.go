package engine

import (
	"time"

	"github.com/perfmut/perfmut/mutate"
)

// Config is what an Engine is built from: the module and its loaded
// packages, how their benchmarks are built, run and judged, and the
// functional tests' timeout.
type Config struct {
	Module   mutate.Module
	Packages []*mutate.Package // the loaded packages whose benchmarks it runs
	Measurement
	// MaxBenchmarks measures each mutant on at most this many of the
	// benchmarks that reach its site (0 = all of them): an inert
	// operator's Job may offer more (Job.Pool) of which it chooses.
	MaxBenchmarks int
	// Timeout is -timeout, the functional tests' deadline (0: the caller
	// derives one from the baseline's test time); a failing baseline test's retries
	// and a mutant's uncapped benchmark sample get at least as long.
	Timeout time.Duration
}
