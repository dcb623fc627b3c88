package score

import (
	"math"
	"testing"
)

func TestSuggestMinEffect(t *testing.T) {
	// 20 ratios 0.991, 0.992, ..., 1.010: the empirical 95% quantile is
	// the 19th smallest, 1.009.
	var rs []float64
	for i := 1; i <= 20; i++ {
		rs = append(rs, 0.990+0.001*float64(i))
	}
	if got := SuggestMinEffect(rs, 0.05); got != 1.009 {
		t.Errorf("SuggestMinEffect = %v, want 1.009", got)
	}
	faster := make([]float64, 20)
	for i := range faster {
		faster[i] = 0.98
	}
	if got := SuggestMinEffect(faster, 0.05); got != 1 {
		t.Errorf("faster trials only: %v, want 1", got)
	}
	rs[18], rs[19] = 1.0123, 1.02
	if got := SuggestMinEffect(rs, 0.05); got != 1.013 {
		t.Errorf("rounding up: %v, want 1.013", got)
	}
	if got := SuggestMinEffect(nil, 0.05); !math.IsNaN(got) {
		t.Errorf("no ratios: %v, want NaN", got)
	}
}

// TestMinEffectTooFewTrials: two trials (calibrate -trials 2) whose mutants
// happened to be faster do not suggest 1 (the guard off): the trials are
// too few, and the error says how many would do.
func TestMinEffectTooFewTrials(t *testing.T) {
	for _, tt := range []struct {
		ratios []float64
		alpha  float64
		want   string
	}{
		{[]float64{0.98, 0.99}, 0.05, "too few trials to suggest a minimum effect: 2 A/A time ratios cannot place their 95% quantile; run at least 20 trials"},
		{[]float64{1.2, 0, UnboundedRatio}, 0.1, "too few trials to suggest a minimum effect: 1 A/A time ratios cannot place their 90% quantile; run at least 10 trials"},
		{nil, 0.01, "too few trials to suggest a minimum effect: 0 A/A time ratios cannot place their 99% quantile; run at least 100 trials"},
	} {
		m, err := MinEffectSuggestion(tt.ratios, tt.alpha)
		if err == nil || err.Error() != tt.want || !math.IsNaN(m) {
			t.Errorf("%v at %v: %v, %v; want NaN, %q", tt.ratios, tt.alpha, m, err, tt.want)
		}
		if got := SuggestMinEffect(tt.ratios, tt.alpha); !math.IsNaN(got) {
			t.Errorf("SuggestMinEffect(%v) = %v, want NaN", tt.ratios, got)
		}
	}
	if n := MinEffectTrials(0.05); n != 20 {
		t.Errorf("MinEffectTrials(0.05) = %d, want 20", n)
	}
}
