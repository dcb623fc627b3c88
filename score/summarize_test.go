package score

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

func TestCountStatuses(t *testing.T) {
	tests := []struct {
		in   []Status
		want Counts
	}{
		{nil, Counts{}},
		{[]Status{Killed, Killed, Survived, NoCoverage, CompileError, FNE, Timeout, Crash},
			Counts{Killed: 2, Survived: 1, NoCoverage: 1, CompileError: 1, FNE: 1, Timeout: 1, Crash: 1,
				Valid: 4, Score: 0.5, CoveredScore: 2.0 / 3}},
		{[]Status{NoCoverage, NoCoverage}, Counts{NoCoverage: 2, Valid: 2}},
		{[]Status{Timeout, "bogus"}, Counts{Timeout: 1}},
		{[]Status{Killed}, Counts{Killed: 1, Valid: 1, Score: 1, CoveredScore: 1}},
		// Undecided is counted beside the score, outside Valid.
		{[]Status{Killed, Undecided, Undecided, Equivalent}, Counts{Killed: 1, Undecided: 2, Valid: 1, Score: 1, CoveredScore: 1}},
	}
	for _, tt := range tests {
		if got := CountStatuses(tt.in); got != tt.want {
			t.Errorf("CountStatuses(%v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// summaryOutcomes is a small campaign: the comments give each mutant's
// verdict at 0.01, 0.05 (the run) and 0.1.
func summaryOutcomes() []Outcome {
	l1, l4 := 0.05/6, 0.05/3 // the default rule's shares at looks 1 and 4
	return []Outcome{
		// Killed at look 1 on sec/op with p_adj 2/252 (Holm over two tests):
		// at 0.01 the share is 0.00167 < 2/252, survived; killed at 0.1.
		{ID: "m1", Operator: "spin-loop", Quadrant: "Q3", Package: "ex/a", Level: "opt", Status: Killed, Tests: []TestResult{
			{Benchmark: "BenchmarkA", Metric: "sec/op", P: 1.0 / 252, PAdj: 2.0 / 252, Threshold: l1, Reject: true},
			{Benchmark: "BenchmarkA", Metric: "B/op", P: 1, PAdj: 1, Threshold: l1},
		}},
		// Survived at look 4 with p 0.02 > 0.0167: killed at 0.1 (0.0333).
		{ID: "m2", Operator: "sleep", Quadrant: "Q1", Package: "ex/a", Level: "opt", Status: Survived, Tests: []TestResult{
			{Benchmark: "BenchmarkA", Metric: "sec/op", P: 0.02, PAdj: 0.02, Threshold: l4},
		}},
		// Killed at look 4 by B/op only (p 1e-6, two tests): killed at every
		// alpha, by B/op.
		{ID: "m3", Operator: "alloc-churn", Quadrant: "Q3", Package: "ex/b", Level: "opt", Status: Killed, Tests: []TestResult{
			{Benchmark: "BenchmarkB", Metric: "sec/op", P: 0.3, PAdj: 0.3, Threshold: l4},
			{Benchmark: "BenchmarkB", Metric: "B/op", P: 1e-6, PAdj: 2e-6, Threshold: l4, Reject: true},
		}},
		{ID: "m4", Operator: "spin-loop", Quadrant: "Q3", Package: "ex/b", Level: "opt", Status: NoCoverage},
		{ID: "m5", Operator: "sleep", Quadrant: "Q1", Package: "ex/b", Level: "opt", Status: CompileError},
		// Below the min effect: survived at every alpha.
		{ID: "m1", Operator: "spin-loop", Quadrant: "Q3", Package: "ex/a", Level: "noopt", Status: Survived, Tests: []TestResult{
			{Benchmark: "BenchmarkA", Metric: "sec/op", P: 1e-9, PAdj: 1e-9, Threshold: l4, BelowMinEffect: true},
		}},
		// No threshold recorded: re-decided at a itself.
		{ID: "m2", Operator: "sleep", Quadrant: "Q1", Package: "ex/a", Level: "noopt", Status: Killed, Tests: []TestResult{
			{Benchmark: "BenchmarkA", Metric: "sec/op", P: 0.03, PAdj: 0.03, Reject: true},
		}},
		{ID: "m3", Operator: "alloc-churn", Quadrant: "Q3", Package: "ex/b", Level: "noopt", Status: Timeout},
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize(summaryOutcomes(), 0.05, Holm)
	if s.Alpha != 0.05 || !slices.Equal(s.Alphas, []float64{0.01, 0.05, 0.1}) {
		t.Fatalf("alpha %v alphas %v", s.Alpha, s.Alphas)
	}
	rows := map[string]Counts{}
	var order []string
	for _, r := range s.Rows {
		k := fmt.Sprintf("%v %s %s %s", r.Alpha, r.Dimension, r.Level, r.Key)
		if _, dup := rows[k]; dup {
			t.Fatalf("duplicate row %s", k)
		}
		rows[k] = r.Counts
		order = append(order, k)
	}
	// Per alpha: 2 level rows, 3+3 operator, 2+2 quadrant, 2+2 package,
	// 2+2 metric.
	if len(s.Rows) != 3*20 {
		t.Errorf("%d rows, want %d", len(s.Rows), 3*20)
	}
	wantOrder := []string{
		"0.01 level noopt noopt", "0.01 level opt opt",
		"0.01 operator noopt alloc-churn", "0.01 operator noopt sleep", "0.01 operator noopt spin-loop",
		"0.01 operator opt alloc-churn", "0.01 operator opt sleep", "0.01 operator opt spin-loop",
	}
	if !slices.Equal(order[:len(wantOrder)], wantOrder) {
		t.Errorf("rows start %q, want %q", order[:len(wantOrder)], wantOrder)
	}
	if last := order[len(order)-1]; last != "0.1 metric opt sec/op" {
		t.Errorf("last row %q", last)
	}
	c := func(k, s, nc, ce, to int) Counts {
		var x Counts
		for range k {
			x.Add(Killed)
		}
		for range s {
			x.Add(Survived)
		}
		for range nc {
			x.Add(NoCoverage)
		}
		for range ce {
			x.Add(CompileError)
		}
		for range to {
			x.Add(Timeout)
		}
		return x
	}
	want := map[string]Counts{
		// opt: m1..m5. Run: m1, m3 killed, m2 survived, m4 no-coverage, m5 excluded.
		"0.05 level opt opt": c(2, 1, 1, 1, 0),
		"0.01 level opt opt": c(1, 2, 1, 1, 0),
		"0.1 level opt opt":  c(3, 0, 1, 1, 0),
		// noopt: m1 survived, m2 killed (p 0.03: survived at 0.01, killed at 0.1), m3 timeout.
		"0.05 level noopt noopt":        c(1, 1, 0, 0, 1),
		"0.01 level noopt noopt":        c(0, 2, 0, 0, 1),
		"0.1 level noopt noopt":         c(1, 1, 0, 0, 1),
		"0.05 operator opt spin-loop":   c(1, 0, 1, 0, 0),
		"0.01 operator opt spin-loop":   c(0, 1, 1, 0, 0),
		"0.05 operator opt sleep":       c(0, 1, 0, 1, 0),
		"0.1 operator opt sleep":        c(1, 0, 0, 1, 0),
		"0.05 operator opt alloc-churn": c(1, 0, 0, 0, 0),
		"0.05 quadrant opt Q3":          c(2, 0, 1, 0, 0),
		"0.05 quadrant opt Q1":          c(0, 1, 0, 1, 0),
		"0.05 package opt ex/a":         c(1, 1, 0, 0, 0),
		"0.05 package opt ex/b":         c(1, 0, 1, 1, 0),
		"0.01 package opt ex/b":         c(1, 0, 1, 1, 0),
		// Metric rows: each metric alone, same denominators as the level.
		"0.05 metric opt sec/op":   c(1, 2, 1, 1, 0),
		"0.05 metric opt B/op":     c(1, 2, 1, 1, 0),
		"0.01 metric opt sec/op":   c(0, 3, 1, 1, 0),
		"0.01 metric opt B/op":     c(1, 2, 1, 1, 0),
		"0.1 metric opt sec/op":    c(2, 1, 1, 1, 0),
		"0.05 metric noopt sec/op": c(1, 1, 0, 0, 1),
		"0.05 metric noopt B/op":   c(0, 2, 0, 0, 1),
	}
	for k, w := range want {
		got, ok := rows[k]
		if !ok {
			t.Errorf("no row %q", k)
			continue
		}
		if got != w {
			t.Errorf("row %q = %+v\nwant %+v", k, got, w)
		}
	}
	if _, err := json.Marshal(s); err != nil {
		t.Fatal(err)
	}
}

func TestSummarizeAlphas(t *testing.T) {
	tests := []struct {
		alpha float64
		want  []float64
	}{
		{0.05, []float64{0.01, 0.05, 0.1}},
		{0.02, []float64{0.01, 0.02, 0.05, 0.1}},
		{0.2, []float64{0.01, 0.05, 0.1, 0.2}},
		{0, []float64{0.01, 0.05, 0.1}},
	}
	for _, tt := range tests {
		s := Summarize(nil, tt.alpha, Holm)
		if !slices.Equal(s.Alphas, tt.want) || s.Rows == nil || len(s.Rows) != 0 {
			t.Errorf("Summarize(nil, %v): alphas %v rows %v", tt.alpha, s.Alphas, s.Rows)
		}
	}
}

// TestSummarizeCorrection checks that other alphas re-adjust the raw
// p-values with the given correction.
func TestSummarizeCorrection(t *testing.T) {
	o := []Outcome{{ID: "m", Level: "opt", Status: Survived, Tests: []TestResult{
		{Metric: "sec/op", P: 0.003, PAdj: 0.006, Threshold: 0.05 / 3},
		{Metric: "sec/op", P: 0.5, PAdj: 0.5, Threshold: 0.05 / 3},
	}}}
	// At 0.1 the level is 0.0333: Holm's 0.006 rejects. At 0.01 (0.00333)
	// only the raw 0.003 does.
	for _, tt := range []struct {
		c      Correction
		alpha  float64
		killed int
	}{{Holm, 0.1, 1}, {None, 0.1, 1}, {Holm, 0.01, 0}, {None, 0.01, 1}, {Bonferroni, 0.01, 0}, {"", 0.01, 0}} {
		s := Summarize(o, 0.05, tt.c)
		for _, r := range s.Rows {
			if r.Dimension == "level" && r.Alpha == tt.alpha && r.Killed != tt.killed {
				t.Errorf("%s at %v: killed %d, want %d", tt.c, tt.alpha, r.Killed, tt.killed)
			}
		}
	}
}

// TestSummarizeTarone checks that other alphas re-apply Tarone's reduction
// from the recorded PMin: a test that cannot reach the level (a constant
// allocs/op, PMin 1) does not count in the correction.
func TestSummarizeTarone(t *testing.T) {
	tests := []TestResult{
		{Metric: "sec/op", P: 0.003, PAdj: 0.003, PMin: 1.0 / 252, Threshold: 0.002},
		{Metric: "allocs/op", P: 1, PAdj: 1, PMin: 1, Excluded: true, Threshold: 0.002},
	}
	// At 0.1 the level is 0.004: the family of one (0.003) rejects, Holm
	// over both (0.006) would not (PMin 0: unknown, kept). At 0.01 (0.0004)
	// nothing rejects.
	for _, tt := range []struct {
		pmin   float64
		alpha  float64
		killed int
	}{{1, 0.1, 1}, {0, 0.1, 0}, {1, 0.01, 0}} {
		tests[1].PMin = tt.pmin
		o := []Outcome{{ID: "m", Level: "opt", Status: Survived, Tests: tests}}
		s := Summarize(o, 0.05, Holm)
		found := false
		for _, r := range s.Rows {
			if r.Dimension == "level" && r.Alpha == tt.alpha {
				found = true
				if r.Killed != tt.killed {
					t.Errorf("allocs/op PMin %v at %v: killed %d, want %d", tt.pmin, tt.alpha, r.Killed, tt.killed)
				}
			}
		}
		if !found {
			t.Errorf("no level row at %v", tt.alpha)
		}
	}
}
