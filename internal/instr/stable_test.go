package instr

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestStable: the count per operation at N and at 2N. A count that does
// not change with N is stable at the N asked for, after five processes
// (two samples at N and one run at 2N sharing the first sample's run at
// 2); a one-off cost of the loop spread over N iterations (4000
// instructions over 10000 iterations of 7: +5.7% at N) is stable only at
// 4N, where it is within 1%; a count per operation that grows with N
// (N*N/1000 more: x1.74 at 2N) is not stable, and the check stops at
// once: a doubling would cost four times the work and settle nothing.
func TestStable(t *testing.T) {
	for _, tc := range []struct {
		name      string
		env       []string
		n         int
		doublings int
		stable    bool
		growth    float64
		runs      []string
	}{
		{"flat", nil, 10000, 0, true, 1, []string{"10002", "10002", "2", "2", "20002"}},
		{"one-off cost", []string{"FAKE_GROW=4000"}, 40000, 2, true, 7.05 / 7.1,
			[]string{"10002", "10002", "2", "2", "20002", "20002", "40002", "40002", "80002"}},
		{"growing", []string{"FAKE_SQ=1000"}, 10000, 0, false, sqPerOp(20000) / sqPerOp(10000),
			[]string{"10002", "10002", "2", "2", "20002"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fakeSampler(t, "", 7)
			log := filepath.Join(t.TempDir(), "log")
			s.Env = append(append(s.Env, "FAKE_LOG="+log), tc.env...)
			st, err := s.Stable(context.Background(), fakeBench, 10000)
			if err != nil {
				t.Fatal(err)
			}
			if st.N != tc.n || st.Doublings != tc.doublings || st.Stable != tc.stable || !near(st.Growth, tc.growth) || st.Spread != 1 {
				t.Errorf("Stable = %s, %d doublings; want N = %d, %d doublings, stable %v, growth %.6f, spread 1", st, st.Doublings, tc.n, tc.doublings, tc.stable, tc.growth)
			}
			for i, smp := range st.Samples {
				if smp.N != st.N || smp.Short == 0 || smp.Long <= smp.Short {
					t.Errorf("sample %d: %+v, want a two-process sample at N = %d", i, smp, st.N)
				}
			}
			runs, _ := os.ReadFile(log)
			if got := slices.Sorted(slices.Values(strings.Fields(string(runs)))); !reflect.DeepEqual(got, slices.Sorted(slices.Values(tc.runs))) {
				t.Errorf("runs at %q iterations, want %q", got, tc.runs)
			}
		})
	}
}

// sqPerOp is the count per operation of a sample at n of the fake with
// FAKE_SQ=1000 and FAKE_PEROP=7 (its shell's integer division).
func sqPerOp(n int) float64 {
	count := func(n int) int { return 1000 + 7*n + n*n/1000 }
	return float64(count(n+MinIters)-count(MinIters)) / float64(n)
}

// near reports whether a and b agree to 1e-9 of b.
func near(a, b float64) bool { return a-b <= 1e-9*b && b-a <= 1e-9*b }
