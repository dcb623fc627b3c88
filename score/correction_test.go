package score

import (
	"slices"
	"testing"
)

func TestParseCorrection(t *testing.T) {
	for _, c := range []Correction{None, Bonferroni, Holm} {
		got, err := ParseCorrection(string(c))
		if err != nil || got != c {
			t.Errorf("ParseCorrection(%q) = %q, %v", c, got, err)
		}
	}
	for _, bad := range []string{"", "Holm", "bh", "holm "} {
		_, err := ParseCorrection(bad)
		want := `unknown correction "` + bad + `" (want none, bonferroni or holm)`
		if err == nil || err.Error() != want {
			t.Errorf("ParseCorrection(%q) error = %v, want %s", bad, err, want)
		}
	}
}

func TestAdjust(t *testing.T) {
	tests := []struct {
		ps   []float64
		c    Correction
		want []float64
	}{
		{nil, Holm, []float64{}},
		{[]float64{0.01}, Holm, []float64{0.01}},
		{[]float64{0.01, 0.04, 0.03}, None, []float64{0.01, 0.04, 0.03}},
		{[]float64{0.01, 0.04, 0.03}, Bonferroni, []float64{0.03, 0.12, 0.09}},
		{[]float64{0.5, 0.4}, Bonferroni, []float64{1, 0.8}},
		// Holm: sorted 0.01, 0.03, 0.04 times 3, 2, 1 = 0.03, 0.06, 0.04 ->
		// monotone 0.03, 0.06, 0.06.
		{[]float64{0.01, 0.04, 0.03}, Holm, []float64{0.03, 0.06, 0.06}},
		// R: p.adjust(c(0.02, 0.001, 0.04, 0.03), "holm") = 0.06 0.004 0.06 0.06
		{[]float64{0.02, 0.001, 0.04, 0.03}, Holm, []float64{0.06, 0.004, 0.06, 0.06}},
		// Ties keep equal adjusted values.
		{[]float64{0.01, 0.01, 0.5}, Holm, []float64{0.03, 0.03, 0.5}},
		{[]float64{0.3, 0.6, 0.9}, Holm, []float64{0.9, 1, 1}},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.ps)
		got := Adjust(tt.ps, tt.c)
		if len(got) != len(tt.want) {
			t.Fatalf("Adjust(%v, %s) = %v, want %v", tt.ps, tt.c, got, tt.want)
		}
		for i := range got {
			if !close(got[i], tt.want[i]) {
				t.Errorf("Adjust(%v, %s) = %v, want %v", tt.ps, tt.c, got, tt.want)
				break
			}
		}
		if !slices.Equal(in, tt.ps) {
			t.Errorf("Adjust modified its argument")
		}
	}
}
