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

// TestPreCount: one process, against the baseline's count at the same
// iterations, unless the estimate reaches 0.8 x 3 x the baseline's median;
// then a second process counts it, and only that count censors. The
// baseline counts 7 per operation with a set-up of 1000 (1084 at 10 + 2).
func TestPreCount(t *testing.T) {
	pb, err := fakeSampler(t, "", 7).PreBaseline(context.Background(), fakeBench, 10)
	if err != nil {
		t.Fatal(err)
	}
	if pb != (PreBase{N: 10, Count: 1084}) {
		t.Fatalf("PreBaseline = %+v, want N 10, Count 1084", pb)
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
			Pre{PerOp: 14, N: 10, Counts: []uint64{1168}}, []string{"12"},
			"one process at 12x against the baseline's: 14.0 instructions/op"},
		{"2.6x: confirmed, not censored", 18, "1000",
			Pre{PerOp: 18, N: 10, Sure: true, Counts: []uint64{1216, 1036}}, []string{"12", "2"},
			"two processes at 2x and 12x: 18.0 instructions/op"},
		{"3x: confirmed and censored", 21, "1000",
			Pre{PerOp: 21, N: 10, Sure: true, Counts: []uint64{1252, 1042}, Censor: true}, []string{"12", "2"}, ""},
		// A larger set-up than the baseline's makes the one-process
		// estimate 7 + (1284 - 1084) / 12 = 23.7 look censored; the
		// second process shows 7.
		{"a larger set-up: not censored", 7, "1200",
			Pre{PerOp: 7, N: 10, Sure: true, Counts: []uint64{1284, 1214}}, []string{"12", "2"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, log := preSampler(t, tc.perOp, tc.setUp)
			got, err := s.PreCount(context.Background(), fakeBench, pb, 7)
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

// TestPreCountErrors: a pre-count below MinIters, or of a failing mutant,
// is an error saying which.
func TestPreCountErrors(t *testing.T) {
	s := fakeSampler(t, "fail", 7)
	if _, err := s.PreBaseline(context.Background(), fakeBench, 1); err == nil ||
		err.Error() != "pre-count of ^BenchmarkFake$: iteration count 1, want at least 2" {
		t.Errorf("PreBaseline at 1 iteration: error %v", err)
	}
	if _, err := s.PreCount(context.Background(), fakeBench, PreBase{N: 10, Count: 1084}, 7); err == nil ||
		!strings.Contains(err.Error(), "exit status 1: --- FAIL: BenchmarkFake") {
		t.Errorf("PreCount of a failing mutant: error %v", err)
	}
}
