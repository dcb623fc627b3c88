package results

import (
	"testing"
	"time"
)

// TestMachineOthers: the share of the CPU time that was not perfmut's own
// (its process and children), from the busy ticks and getrusage.
func TestMachineOthers(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 16, 0, 0, 0, time.UTC)
	start := Snapshot{Time: t0, CPUs: 2, StealKnown: true, Total: 1000, Busy: 300, OwnKnown: true, Own: 2 * time.Second}
	at := func(busy uint64, own time.Duration) Snapshot {
		s := start
		s.Time, s.Total, s.Busy, s.Own = t0.Add(10*time.Second), start.Total+2000, start.Busy+busy, start.Own+own
		return s
	}
	for _, tc := range []struct {
		name     string
		end      Snapshot
		want     float64
		wantKnow bool
	}{
		// 1500 of 2000 ticks busy (75%), perfmut 12 of the 20 CPU seconds (60%).
		{"others", at(1500, 12*time.Second), 0.15, true},
		// perfmut's own accounting above the busy ticks (rounding): none.
		{"none", at(1000, 12*time.Second), 0, true},
		{"own unknown", func() Snapshot { s := at(1500, 0); s.OwnKnown = false; return s }(), 0, false},
		{"no time passed", start, 0, false},
	} {
		got, known := Machine{Start: start, End: tc.end}.Others()
		if known != tc.wantKnow || (known && (got < tc.want-1e-12 || got > tc.want+1e-12)) {
			t.Errorf("%s: Others = %v, %v; want %v, %v", tc.name, got, known, tc.want, tc.wantKnow)
		}
	}
	if _, known := (Machine{}).Others(); known {
		t.Error("Others of an empty machine is known")
	}
}
