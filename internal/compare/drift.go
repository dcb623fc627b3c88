package compare

import (
	"fmt"

	"github.com/perfmut/perfmut/results"
)

// driftWarning words d as a warning of the comparison.
func driftWarning(d results.Drift) string {
	c := d.Since
	if len(c) > 12 {
		c = c[:12]
	}
	return fmt.Sprintf("drift: %s %s of NEW is %sx the oldest of its %d recorded distributions on this machine (%s, %s; p=%.2g): a slow creep over several changes, whatever OLD -> NEW says",
		d.Benchmark, d.Metric, results.FormatRatio(d.Ratio), d.Entries, c, d.SinceTime.Format("2006-01-02"), d.P)
}
