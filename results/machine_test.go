package results

import (
	"testing"
	"time"
)

func TestMachine(t *testing.T) {
	at := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	start := Snapshot{Time: at, CPUs: 2, Load: [3]float64{3.88, 1, 0.5}, LoadKnown: true, Steal: 30, Total: 1000, StealKnown: true}
	end := Snapshot{Time: at.Add(time.Minute), CPUs: 2, Load: [3]float64{12.26, 4, 1}, LoadKnown: true, Steal: 33, Total: 3000, StealKnown: true}
	m := Machine{start, end}
	if steal, ok := m.Steal(); !ok || steal != 0.0015 {
		t.Errorf("Steal = %g, %v; want 0.0015 (3 of 2000 ticks)", steal, ok)
	}
	if got, want := m.String(), "load 3.88 at the start, 12.26 at the end (1-minute averages, 2 CPUs); CPU steal 0.1% from start to end"; got != want {
		t.Errorf("String =\n%q, want\n%q", got, want)
	}
	if got, want := start.String(), "load 3.88 (1-minute average, 2 CPUs)"; got != want {
		t.Errorf("Snapshot.String = %q, want %q", got, want)
	}
	// The OS is the measured machine's, not the renderer's; reports
	// before it was kept do not name one.
	unknown := Machine{Snapshot{CPUs: 8, OS: "plan9"}, Snapshot{CPUs: 8, OS: "plan9"}}
	if got, want := unknown.String(), "load unknown on plan9 (8 CPUs); CPU steal unknown"; got != want {
		t.Errorf("String =\n%q, want\n%q", got, want)
	}
	if got, want := unknown.Start.String(), "load unknown on plan9 (8 CPUs)"; got != want {
		t.Errorf("Snapshot.String = %q, want %q", got, want)
	}
	if got, want := (Machine{Snapshot{CPUs: 8}, Snapshot{CPUs: 8}}).String(), "load unknown (8 CPUs); CPU steal unknown"; got != want {
		t.Errorf("String of an old report =\n%q, want\n%q", got, want)
	}
	same := Machine{start, start}
	if _, ok := same.Steal(); ok {
		t.Errorf("Steal over no time: known, want unknown")
	}
}
