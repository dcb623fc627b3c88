package results

import (
	"fmt"
	"strings"
	"time"
)

// Machine is the machine's load over a campaign: a snapshot at its start
// and one at its end.
type Machine struct {
	Start Snapshot `json:"start"`
	End   Snapshot `json:"end"`
}

// Steal returns the share of the CPU time from Start to End that the
// hypervisor stole (0 to 1), and whether it is known: both snapshots know
// it and time passed between them.
func (m Machine) Steal() (float64, bool) {
	a, b := m.Start, m.End
	if !a.StealKnown || !b.StealKnown || b.Total <= a.Total || b.Steal < a.Steal {
		return 0, false
	}
	return float64(b.Steal-a.Steal) / float64(b.Total-a.Total), true
}

// Others returns the share of the machine's CPU time from Start to End
// (0 to 1) that went to processes other than perfmut and the children it
// waited for (its builds, tests and benchmarks): the load that is not
// perfmut's own. It is known when both snapshots know the busy and own
// CPU time and time passed between them.
func (m Machine) Others() (float64, bool) {
	a, b := m.Start, m.End
	if !a.StealKnown || !b.StealKnown || !a.OwnKnown || !b.OwnKnown || b.Total <= a.Total || b.Busy < a.Busy || a.Busy == 0 {
		return 0, false
	}
	capacity := b.Time.Sub(a.Time).Seconds() * float64(max(a.CPUs, 1))
	if capacity <= 0 {
		return 0, false
	}
	busy := float64(b.Busy-a.Busy) / float64(b.Total-a.Total)
	own := (b.Own - a.Own).Seconds() / capacity
	return min(max(busy-own, 0), 1), true
}

// String is the one line the reports' headers show, e.g.
//
//	load 3.88 at the start, 12.26 at the end (1-minute averages, 2 CPUs); CPU steal 0.1% from start to end
//
// with "unknown" for what the platform does not give.
func (m Machine) String() string {
	var b strings.Builder
	if m.Start.LoadKnown && m.End.LoadKnown {
		fmt.Fprintf(&b, "load %.2f at the start, %.2f at the end (1-minute averages, %d CPUs)", m.Start.Load[0], m.End.Load[0], m.Start.CPUs)
	} else {
		b.WriteString(m.Start.unknownLoad())
	}
	if steal, ok := m.Steal(); ok {
		fmt.Fprintf(&b, "; CPU steal %.1f%% from start to end", 100*steal)
	} else {
		b.WriteString("; CPU steal unknown")
	}
	return b.String()
}

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
	Steal uint64 `json:"steal_ticks"`
	Total uint64 `json:"total_ticks"`
	// Busy is the CPU time (clock ticks, summed over the CPUs) spent
	// neither idle, waiting for I/O nor stolen, since boot; known with
	// StealKnown (0 in reports from before it was kept).
	Busy uint64 `json:"busy_ticks,omitempty"`
	// Own is the CPU time perfmut used up to the snapshot, its children
	// that ended included (builds, tests, benchmarks); OwnKnown is false
	// where the platform does not give it.
	Own        time.Duration `json:"own_cpu_ns,omitempty"`
	OwnKnown   bool          `json:"own_known,omitempty"`
	StealKnown bool          `json:"steal_known"`
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
