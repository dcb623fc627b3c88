package attrib

import (
	"cmp"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/perfmut/perfmut/results"
)

// A Round is one round's profiles of a metric: OLD's and NEW's charges,
// and the iteration count N of both its samples (0: Options.N).
type Round struct {
	Old, New Charges
	N        int
}

// Options say how to rank.
type Options struct {
	// N is the iteration count of the profiled samples of a round
	// without one: values per op are the charges / N.
	N int
	// Dir is the direction of the change: +1 (NEW slower, more), -1 (NEW
	// faster, less), 0 to follow the sign of the profiles' total
	// difference.
	Dir float64
	// Top is how many functions to keep (default 5).
	Top int
	// Changed maps the changed functions' keys to where the change
	// touched them (results.AttribFunc.Changed).
	Changed map[string]string
	// InModule reports whether a function is the module's; nil: every
	// one is. The others (samples without a frame of the module: the
	// scheduler, the garbage collector's workers) come after the
	// module's functions, at most 2 of them.
	InModule func(key string) bool
}

// maxOutside is how many functions outside the module Rank keeps.
const maxOutside = 2

// Rank attributes the difference between the rounds' NEW and OLD
// charges per op to functions: m's totals and Functions (the Top
// functions of the module whose value moved most in the direction of the
// change, then up to maxOutside outside it, with
// their shares, intervals, changed lines and the changed functions they
// call). m's Metric, Verdict, Ratio and Unit are kept. With changed
// functions, an unchanged function's value under a changed one counts
// for the changed one (Charges.ToChanged).
func Rank(m results.AttribMetric, rounds []Round, o Options) results.AttribMetric {
	if o.Top <= 0 {
		o.Top = 5
	}
	n := o.N
	rounds = slices.Clone(rounds)
	for i := range rounds {
		rounds[i].Old, rounds[i].New = rounds[i].Old.ToChanged(o.Changed), rounds[i].New.ToChanged(o.Changed)
	}
	total := func(c Charges) float64 { return c.Total }
	m.Old, m.New, m.Delta, m.DeltaLo, m.DeltaHi = paired(rounds, n, total)
	dir := o.Dir
	if dir == 0 {
		dir = 1
		if m.Delta < 0 {
			dir = -1
		}
	}
	var fs []results.AttribFunc
	for _, k := range keys(rounds) {
		self := func(c Charges) float64 { return c.Self[k] }
		f := results.AttribFunc{Function: k, Changed: o.Changed[k], Calls: calls(rounds, k, o.Changed), CalledBy: calledBy(rounds, k, o.Changed),
			Outside: o.InModule != nil && !o.InModule(k)}
		f.Old, f.New, f.Delta, f.DeltaLo, f.DeltaHi = paired(rounds, n, self)
		if dir*f.Delta <= 0 {
			continue
		}
		_, _, f.CumDelta, _, _ = paired(rounds, n, func(c Charges) float64 { return c.Cum[k] })
		if m.Delta != 0 {
			f.Share = f.Delta / m.Delta
		}
		fs = append(fs, f)
	}
	sort.SliceStable(fs, func(i, j int) bool { return dir*fs[i].Delta > dir*fs[j].Delta })
	var in, out []results.AttribFunc
	for _, f := range fs {
		if f.Outside {
			out = append(out, f)
		} else {
			in = append(in, f)
		}
	}
	m.Functions = append(in[:min(len(in), o.Top)], out[:min(len(out), maxOutside)]...)
	return m
}

// paired returns the means per op of v over the rounds' OLD and NEW
// charges, their difference, and the sign-test 95% interval of the
// per-round differences; n is the iteration count of a round without
// one.
func paired(rounds []Round, n int, v func(Charges) float64) (old, new, delta, lo, hi float64) {
	ds := make([]float64, len(rounds))
	for i, r := range rounds {
		ri := float64(max(cmp.Or(r.N, n), 1))
		o, w := v(r.Old)/ri, v(r.New)/ri
		old += o
		new += w
		ds[i] = w - o
	}
	if len(rounds) == 0 {
		return 0, 0, 0, 0, 0
	}
	old /= float64(len(rounds))
	new /= float64(len(rounds))
	lo, hi = signInterval(ds)
	return old, new, new - old, lo, hi
}

// signInterval is the 95% interval of the median of xs from their order
// statistics, as the sign test gives it: [x(k), x(n+1-k)] of the sorted
// values for the largest k at which the chance left outside on each side,
// P(Binomial(n, 1/2) < k), is at most 2.5%. Below 6 values there is none:
// 0, 0.
func signInterval(xs []float64) (lo, hi float64) {
	n := len(xs)
	b := distuv.Binomial{N: float64(n), P: 0.5}
	k := 0
	for k < n/2 && b.CDF(float64(k)) <= 0.025 {
		k++
	}
	if k == 0 {
		return 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[k-1], s[n-k]
}

// keys lists every function charged in a round, sorted.
func keys(rounds []Round) []string {
	set := map[string]bool{}
	for _, r := range rounds {
		for _, c := range []Charges{r.Old, r.New} {
			for k := range c.Self {
				set[k] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// calls lists the changed functions other than k that ran below k on
// some stack of the rounds, sorted.
func calls(rounds []Round, k string, changed map[string]string) []string {
	return related(rounds, changed, func(c Charges, g string) bool { return c.Callees[k][g] && g != k })
}

// calledBy lists the changed functions other than k that ran above k on
// some stack of the rounds, sorted.
func calledBy(rounds []Round, k string, changed map[string]string) []string {
	return related(rounds, changed, func(c Charges, g string) bool { return c.Callees[g][k] && g != k })
}

// related lists the changed functions g for which rel(c, g) holds in
// some charges c of the rounds, sorted.
func related(rounds []Round, changed map[string]string, rel func(c Charges, g string) bool) []string {
	var out []string
	for _, g := range sortedKeys(changed) {
		for _, r := range rounds {
			if rel(r.Old, g) || rel(r.New, g) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
