//go:build linux

package engine

import (
	"os"

	"github.com/perfmut/perfmut/results"
)

// readLoad fills s's load and steal from /proc.
func readLoad(s *results.Snapshot) {
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if load, err := parseLoadavg(string(b)); err == nil {
			s.Load, s.LoadKnown = load, true
		}
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		if steal, total, err := parseStat(string(b)); err == nil {
			s.Steal, s.Total, s.StealKnown = steal, total, true
		}
	}
}
