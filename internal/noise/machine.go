package noise

import (
	"fmt"
	"strings"
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
