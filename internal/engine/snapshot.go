package engine

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/perfmut/perfmut/results"
)

// takeSnapshot returns the machine's load now: on Linux from
// /proc/loadavg and /proc/stat; elsewhere with the load and steal
// unknown. A file that cannot be read or parsed leaves its part unknown.
func takeSnapshot() results.Snapshot {
	s := results.Snapshot{Time: time.Now(), CPUs: runtime.NumCPU(), OS: runtime.GOOS}
	readLoad(&s)
	return s
}

// parseLoadavg reads the three load averages of /proc/loadavg
// ("0.52 0.58 0.59 1/467 12345").
func parseLoadavg(text string) ([3]float64, error) {
	var load [3]float64
	f := strings.Fields(text)
	if len(f) < 3 {
		return load, fmt.Errorf("/proc/loadavg: %q has fewer than 3 fields", strings.TrimSpace(text))
	}
	for i := range load {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || v < 0 {
			return load, fmt.Errorf("/proc/loadavg: bad load average %q", f[i])
		}
		load[i] = v
	}
	return load, nil
}

// parseStat reads the stolen, the busy and the total CPU time of the
// "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal
// [guest guest_nice]. Guest time is already in user and nice, so the total
// is the first eight fields, and busy is the total but idle, iowait and
// steal; a kernel too old to report steal (fewer than eight) is an error.
func parseStat(text string) (steal, busy, total uint64, err error) {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "cpu" {
			continue
		}
		if len(f) < 9 {
			return 0, 0, 0, fmt.Errorf("/proc/stat: the cpu line has %d values, want at least 8 (steal is the 8th)", len(f)-1)
		}
		for i, s := range f[1:9] {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return 0, 0, 0, fmt.Errorf("/proc/stat: bad cpu time %q", s)
			}
			total += v
			switch i {
			case 3, 4: // idle, iowait
			case 7:
				steal = v
			default:
				busy += v
			}
		}
		return steal, busy, total, nil
	}
	return 0, 0, 0, fmt.Errorf("/proc/stat has no cpu line")
}
