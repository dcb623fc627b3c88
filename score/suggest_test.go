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
	if got := SuggestMinEffect([]float64{0.98, 0.99}, 0.05); got != 1 {
		t.Errorf("faster trials only: %v, want 1", got)
	}
	if got := SuggestMinEffect([]float64{1.0123}, 0.05); got != 1.013 {
		t.Errorf("rounding up: %v, want 1.013", got)
	}
	if got := SuggestMinEffect(nil, 0.05); !math.IsNaN(got) {
		t.Errorf("no ratios: %v, want NaN", got)
	}
}
