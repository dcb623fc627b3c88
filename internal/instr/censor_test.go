package instr

import "testing"

func TestCensor(t *testing.T) {
	for n, want := range map[int]int{1171: 18, 128: 2, 64: 2, 2: 2, 390287: 6098} {
		if got := PreIters(n); got != want {
			t.Errorf("PreIters(%d) = %d, want %d", n, got, want)
		}
	}
	for _, tc := range []struct {
		perOp, base float64
		want        bool
	}{{255000, 85000, true}, {254999, 85000, false}, {85000, 85000, false}, {1, 0, false}} {
		if got := censors(tc.perOp, tc.base); got != tc.want {
			t.Errorf("Censors(%g, %g) = %v, want %v", tc.perOp, tc.base, got, tc.want)
		}
	}
}
