package instr

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// preSampler is fakeSampler for a mutant of perOp instructions per
// operation and set-up (FAKE_BASE) setUp, logging its runs' iteration
// counts to the file it returns.
func preSampler(t *testing.T, perOp int, setUp string) (*Sampler, string) {
	t.Helper()
	s := fakeSampler(t, "", perOp)
	log := filepath.Join(t.TempDir(), "log")
	s.Env = append(s.Env, "FAKE_LOG="+log, "FAKE_BASE="+setUp)
	return s, log
}

// TestPreCount: one process, less the baseline's set-up, unless the
// estimate reaches 0.8 x 3 x the baseline's median; then a second process
// counts it, and only that count censors. The baseline counts 7 per
// operation with a set-up of 1000.
func TestPreCount(t *testing.T) {
	base, err := fakeSampler(t, "", 7).Sample(context.Background(), fakeBench, 500)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		perOp  int
		setUp  string
		want   Pre
		runs   []string
		String string
	}{
		{"twice the work: one process", 14, "1000",
			Pre{PerOp: 14, N: 10, Counts: []uint64{1140}, SetUp: 1000}, []string{"10"},
			"one process at 10x, less the baseline's set-up of 1000: 14.0 instructions/op"},
		{"2.6x: confirmed, not censored", 18, "1000",
			Pre{PerOp: 18, N: 10, Sure: true, Counts: []uint64{1180, 1360}}, []string{"10", "20"},
			"two processes at 10x and 20x: 18.0 instructions/op"},
		{"3x: confirmed and censored", 21, "1000",
			Pre{PerOp: 21, N: 10, Sure: true, Counts: []uint64{1210, 1420}, Censor: true}, []string{"10", "20"}, ""},
		// A larger set-up than the baseline's makes the one-process
		// estimate (1270 - 1000) / 10 = 27 look censored; the second
		// process shows 7.
		{"a larger set-up: not censored", 7, "1200",
			Pre{PerOp: 7, N: 10, Sure: true, Counts: []uint64{1270, 1340}}, []string{"10", "20"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, log := preSampler(t, tc.perOp, tc.setUp)
			got, err := s.PreCount(context.Background(), fakeBench, 10, []Sample{base})
			if err != nil {
				t.Fatal(err)
			}
			got.Elapsed = 0
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("PreCount = %+v, want %+v", got, tc.want)
			}
			runs, _ := os.ReadFile(log)
			if f := strings.Fields(string(runs)); !reflect.DeepEqual(f, tc.runs) {
				t.Errorf("PreCount ran the mutant at %q iterations, want %q", f, tc.runs)
			}
			if tc.String != "" && got.String() != tc.String {
				t.Errorf("Pre.String() = %q, want %q", got.String(), tc.String)
			}
		})
	}
}

// TestPreCountErrors: without a two-process baseline sample there is no
// set-up to subtract; a failing mutant run is the run's error.
func TestPreCountErrors(t *testing.T) {
	s := fakeSampler(t, "fail", 7)
	one := Sample{PerOp: 7, N: 50, Long: 1700, SetUp: 1000}
	if _, err := s.PreCount(context.Background(), fakeBench, 10, []Sample{one}); err == nil ||
		err.Error() != "pre-count of ^BenchmarkFake$: no two-process sample of the baseline to take its set-up from" {
		t.Errorf("PreCount without a two-process baseline sample: error %v", err)
	}
	two := Sample{PerOp: 7, N: 50, Short: 1350, Long: 1700}
	if _, err := s.PreCount(context.Background(), fakeBench, 10, []Sample{two}); err == nil ||
		!strings.Contains(err.Error(), "exit status 1: --- FAIL: BenchmarkFake") {
		t.Errorf("PreCount of a failing mutant: error %v", err)
	}
}

// TestBaseline: the set-up is the median over two-process samples only,
// the median count per operation over all.
func TestBaseline(t *testing.T) {
	base := []Sample{
		{PerOp: 7, Short: 1350, Long: 1700},   // set-up 1000
		{PerOp: 9, Short: 1460, Long: 1910},   // 1010
		{PerOp: 8, Short: 1420, Long: 1820},   // 1020
		{PerOp: 100, Long: 6000, SetUp: 1000}, // one process: no set-up of its own
	}
	if setUp, median, ok := baseline(base); setUp != 1010 || median != 8.5 || !ok {
		t.Errorf("baseline = %g, %g, %v; want 1010, 8.5, true", setUp, median, ok)
	}
}
