package runner

import (
	"fmt"
	"time"

	"github.com/perfmut/perfmut/results"
)

// sensitivities is the sensitivity of every loop site of ms
// (results.Sensitivities), each with its Text, which the reports show.
func sensitivities(ms []results.Mutant) []results.Sensitivity {
	ss := results.Sensitivities(ms)
	for i := range ss {
		ss[i].Text = sensitivityText(ss[i])
	}
	return ss
}

// sensitivityText words a loop site's sensitivity (results.Sensitivity's
// Text): the smallest injected time per iteration the benchmarks noticed
// there and the largest below it they missed.
func sensitivityText(s results.Sensitivity) string {
	switch {
	case s.DetectedNanos > 0 && s.MissedNanos > 0:
		return fmt.Sprintf("benchmarks notice +%s per iteration here, not +%s", nanos(s.DetectedNanos), nanos(s.MissedNanos))
	case s.DetectedNanos > 0:
		return fmt.Sprintf("benchmarks notice +%s per iteration here", nanos(s.DetectedNanos))
	}
	return fmt.Sprintf("benchmarks notice nothing up to +%s per iteration here", nanos(s.MissedNanos))
}

// nanos prints a duration in ns with two significant digits: 7µs, 0.7ms.
func nanos(ns float64) string {
	d := time.Duration(ns)
	switch {
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2gms", ns/1e6)
	case d >= time.Microsecond:
		return fmt.Sprintf("%.2gµs", ns/1e3)
	}
	return fmt.Sprintf("%.2gns", ns)
}
