package score

import "testing"

// TestNoisyFirstLookThenClear: one benchmark whose first look is noise
// (one round's ratio 1.4, the others below 1: p = 0.6, no plausible power,
// the margin not ruled out) and whose later rounds are all x1.4. Before,
// the futility stop closed the test at the first look for good (binding),
// the mutant sampled on to 30 rounds for a survivor's evidence it could
// not get, and ended undecided with p = 2e-8 and reject false. The stop
// does not bind now: the test rejects at the first look whose level it
// reaches, and the later looks would too.
func TestNoisyFirstLookThenClear(t *testing.T) {
	r := DefaultRule()
	s := Sample{Benchmark: "BenchmarkCombined", Metric: SecPerOp,
		Baseline: []float64{100, 102, 98, 101, 99},
		Mutant:   []float64{140, 90, 91, 92, 93}}
	for i := 5; i < r.MaxSamples; i++ {
		s.Baseline = append(s.Baseline, 100+float64(i%3))
		s.Mutant = append(s.Mutant, 140+float64(i%3))
	}
	first := r.Decide([]Sample{s.prefix(5)})
	if first.Decision != Continue || first.Look != 1 {
		t.Fatalf("first look: %s at look %d, want continue", first.Decision, first.Look)
	}
	if cp := ConditionalPower(first.Tests[0].P, 5.0/30, r.Alpha); cp >= r.FutilityPower {
		t.Fatalf("first look: conditional power %v, want below %v (the case must be one the binding stop closed)", cp, r.FutilityPower)
	}
	killed := 0
	for _, n := range r.Looks()[1:] {
		v := r.Decide([]Sample{s.prefix(n)})
		tr := v.Tests[0]
		if v.Decision != Kill || !tr.Reject || tr.PAdj > tr.Threshold {
			t.Errorf("%d samples: %s, p %.3g, threshold %.3g, reject %v; want a kill", n, v.Decision, tr.P, tr.Threshold, tr.Reject)
			continue
		}
		killed++
		if n == r.MaxSamples && !(tr.P < 1e-8 && tr.Ratio > 1.38) {
			t.Errorf("30 samples: p %.3g ratio %.3f, want the issue's p below 1e-8 at about x1.4", tr.P, tr.Ratio)
		}
	}
	if killed == 0 {
		t.Fatal("no later look kills")
	}
}
