package noise

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// A Snapshot is the machine's load at one moment.
type Snapshot struct {
	Time time.Time `json:"time"`
	CPUs int       `json:"cpus"` // runtime.NumCPU
	// OS is the measured machine's runtime.GOOS ("" in reports before
	// it was kept): the renderer's may be another.
	OS string `json:"os,omitempty"`
	// Load is the 1, 5 and 15 minute load averages; LoadKnown is false
	// where the platform does not give them.
	Load      [3]float64 `json:"load"`
	LoadKnown bool       `json:"load_known"`
	// Steal and Total are the CPU time (in clock ticks, summed over the
	// CPUs) stolen by the hypervisor and spent in all states, since boot;
	// StealKnown is false where the platform does not give them.
	Steal      uint64 `json:"steal_ticks"`
	Total      uint64 `json:"total_ticks"`
	StealKnown bool   `json:"steal_known"`
}

// Take returns the machine's snapshot now: on Linux from /proc/loadavg
// and /proc/stat; elsewhere with the load and steal unknown. A file that
// cannot be read or parsed leaves its part unknown.
func Take() Snapshot {
	s := Snapshot{Time: time.Now(), CPUs: runtime.NumCPU(), OS: runtime.GOOS}
	read(&s)
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

// parseStat reads the stolen and the total CPU time of the "cpu" line of
// /proc/stat: user nice system idle iowait irq softirq steal [guest
// guest_nice]. Guest time is already in user and nice, so the total is the
// first eight fields; a kernel too old to report steal (fewer than eight)
// is an error.
func parseStat(text string) (steal, total uint64, err error) {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "cpu" {
			continue
		}
		if len(f) < 9 {
			return 0, 0, fmt.Errorf("/proc/stat: the cpu line has %d values, want at least 8 (steal is the 8th)", len(f)-1)
		}
		for i, s := range f[1:9] {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return 0, 0, fmt.Errorf("/proc/stat: bad cpu time %q", s)
			}
			total += v
			if i == 7 {
				steal = v
			}
		}
		return steal, total, nil
	}
	return 0, 0, fmt.Errorf("/proc/stat has no cpu line")
}

// String is the snapshot's load for a log line: "load 3.88 (1-minute
// average, 2 CPUs)", or "load unknown on darwin (8 CPUs)".
func (s Snapshot) String() string {
	if !s.LoadKnown {
		return s.unknownLoad()
	}
	return fmt.Sprintf("load %.2f (1-minute average, %d CPUs)", s.Load[0], s.CPUs)
}

// unknownLoad is the line of a snapshot without a load: "load unknown on
// darwin (8 CPUs)", naming the measured machine's OS when it is known.
func (s Snapshot) unknownLoad() string {
	if s.OS == "" {
		return fmt.Sprintf("load unknown (%d CPUs)", s.CPUs)
	}
	return fmt.Sprintf("load unknown on %s (%d CPUs)", s.OS, s.CPUs)
}
