package score

import "gonum.org/v1/gonum/stat/distuv"

// ClopperPearson is the exact (Clopper-Pearson) confidence interval of a
// binomial proportion k/n at the given confidence, e.g. 0.95; [0, 1] when
// n is 0. perfmut calibrate puts it around the false-kill rate of its A/A
// trials.
func ClopperPearson(k, n int, conf float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	a := (1 - conf) / 2
	lo, hi = 0, 1
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(a)
	}
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - a)
	}
	return lo, hi
}
