package mutate

import "testing"

func TestCostCounted(t *testing.T) {
	for _, tc := range []struct {
		c                      Cost
		name                   string
		sequential, concurrent bool
	}{
		{CostWork, "work", true, true},
		{CostWait, "wait", false, false},
		// A lock or an atomic costs cycles, not instructions: a
		// contention mutant on a serial benchmark is measured on wall time.
		{CostContention, "contention", false, false},
		// The collector's work is not counted (GOGC=off).
		{CostAlloc, "allocation", false, false},
		{costUnset, "unset", false, false},
		{Cost(9), "Cost(9)", false, false},
	} {
		if got := tc.c.String(); got != tc.name {
			t.Errorf("Cost(%d).String() = %q, want %q", int(tc.c), got, tc.name)
		}
		if s, c := tc.c.Counted(false), tc.c.Counted(true); s != tc.sequential || c != tc.concurrent {
			t.Errorf("%s: Counted(false), Counted(true) = %v, %v; want %v, %v", tc.name, s, c, tc.sequential, tc.concurrent)
		}
		if v := tc.c.Valid(); v != (tc.c >= CostWork && tc.c <= CostAlloc) {
			t.Errorf("%s: Valid() = %v", tc.name, v)
		}
	}
}
