//go:build linux

package engine

import (
	"os"
	"syscall"
	"time"

	"github.com/perfmut/perfmut/results"
)

// readLoad fills s's load, steal and busy time from /proc, and
// perfmut's own CPU time from getrusage.
func readLoad(s *results.Snapshot) {
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if load, err := parseLoadavg(string(b)); err == nil {
			s.Load, s.LoadKnown = load, true
		}
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		if steal, busy, total, err := parseStat(string(b)); err == nil {
			s.Steal, s.Busy, s.Total, s.StealKnown = steal, busy, total, true
		}
	}
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) == nil && syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) == nil {
		for _, u := range []syscall.Rusage{self, children} {
			s.Own += time.Duration(u.Utime.Nano() + u.Stime.Nano())
		}
		s.OwnKnown = true
	}
}
