package engine

import (
	"time"

	"github.com/perfmut/perfmut/mutate"
)

// Config is what an Engine is built from: the module, how its benchmarks
// are built, run and judged, and the functional tests' timeout.
type Config struct {
	Module mutate.Module
	Measurement
	Timeout time.Duration // functional-test timeout; 0 = 10 x the baseline's, at least 10s
}
