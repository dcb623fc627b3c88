package detect

import (
	"math"
	"sort"
)

// Status says how a function is reached by the benchmarks.
type Status string

const (
	Timed Status = "timed"       // some benchmark runs it in its timed loop
	SetUp Status = "set-up only" // benchmarks run it, never more often at a larger b.N
	Never Status = "never"       // no benchmark runs it
)

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// wilson is the Wilson score interval (95%) of a binomial proportion k/n.
// It is [0, 1] when n is 0.
func wilson(k, n int64) (lo, hi float64) { return wilsonZ(k, n, z95) }

// wilsonZ is the Wilson score interval of k/n at normal quantile z.
func wilsonZ(k, n int64, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p, fn := float64(k)/float64(n), float64(n)
	z2 := z * z
	den := 1 + z2/fn
	mid := (p + z2/(2*fn)) / den
	half := z * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn)) / den
	lo, hi = math.Max(0, mid-half), math.Min(1, mid+half)
	// At k = 0 (k = n) the closed form's lower (upper) end is 0 (1);
	// rounding must not make it a tiny share, whose factor is huge.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// factor is the smallest slowdown factor of a function with share s of a
// benchmark's time for the benchmark, whose detectable ratio is d, to
// notice: 1 + (d - 1) / s; +Inf when s is 0.
func factor(d, s float64) float64 {
	if s <= 0 {
		return math.Inf(1)
	}
	return 1 + (d-1)/s
}

// A BenchResult is what one benchmark contributes to the map.
type BenchResult struct {
	Name       string  `json:"name"`       // importpath.BenchmarkX
	Detectable float64 `json:"detectable"` // d: the ratio its samples detect
	// Counted: Detectable is from the baseline's instruction counts (a
	// campaign at -measure instructions), not from Noise (WithCounts).
	Counted    bool      `json:"counted,omitempty"`
	Noise      []float64 `json:"noise_ns_per_op"`
	Iterations int       `json:"iterations"` // b.N of each round of the profiled run
	// CoverIterations is the b.N of the first coverage run (the second
	// runs twice as many): about 50ms in the coverage binary.
	CoverIterations int `json:"coverage_iterations"`
	// coverNsPerOp is the coverage binary's calibrated ns/op, which
	// CoverIterations is chosen from (0 when it was not calibrated).
	coverNsPerOp float64
	Shares       Shares `json:"-"`
	// PerOp is how many times each block in scope that grows with b.N
	// runs per iteration, by "importpath/file.go:line.col" of its start
	// (BlockKey): the executions of a loop body per benchmark operation.
	PerOp map[string]float64 `json:"executions_per_op,omitempty"`
	// Grows are the functions it runs more often at a larger b.N (in
	// its timed loop); Ran all the functions it runs.
	Grows map[string]bool `json:"-"`
	Ran   map[string]bool `json:"-"`
}

// A Row is one function of the map.
type Row struct {
	Package  string `json:"package"`  // import path
	Function string `json:"function"` // as perfmut list names it: Lower, T.M or (*T).M
	Status   Status `json:"status"`
	// Factor is the smallest slowdown factor some benchmark notices; nil
	// when never or set-up only. AtLeast: no timed sample fell in the
	// function, and Factor is the bound from the share's upper limit.
	Factor     *float64 `json:"factor"`
	AtLeast    bool     `json:"at_least,omitempty"`
	FactorLow  float64  `json:"factor_low,omitempty"`  // from ShareHigh
	FactorHigh float64  `json:"factor_high,omitempty"` // from ShareLow; 0 = unbounded
	Benchmark  string   `json:"benchmark,omitempty"`
	Share      float64  `json:"share"` // cumulative (with callees) share of the benchmark's timed samples
	ShareLow   float64  `json:"share_low"`
	ShareHigh  float64  `json:"share_high"`
	FlatShare  float64  `json:"flat_share"` // its own code only
	Samples    int64    `json:"samples"`    // the benchmark's timed samples
}

// Rows computes a row for each function in funcs from the benchmarks'
// results, worst protected first (see Sort).
func Rows(funcs []FuncID, benches []BenchResult) []Row {
	rows := make([]Row, 0, len(funcs))
	for _, fn := range funcs {
		rows = append(rows, row(fn, benches))
	}
	sortRows(rows)
	return rows
}

// row is fn's row: the benchmark that notices the smallest slowdown of it.
func row(id FuncID, benches []BenchResult) Row {
	fn := id.Key()
	r := Row{Package: id.Package, Function: id.Name, Status: Never}
	best := math.Inf(1)
	for _, b := range benches {
		if b.Ran[fn] && r.Status == Never {
			r.Status = SetUp
		}
		if !b.Grows[fn] || b.Shares.Total == 0 {
			continue
		}
		c := b.Shares.Funcs[fn]
		lo, hi := wilson(c.Cum, b.Shares.Total)
		s := float64(c.Cum) / float64(b.Shares.Total)
		f := factor(b.Detectable, s)
		atLeast := math.IsInf(f, 1)
		if atLeast {
			f = factor(b.Detectable, hi)
		}
		if r.Status == Timed && !better(f, atLeast, best, r.AtLeast) {
			continue
		}
		r.Status, best = Timed, f
		r.Factor, r.AtLeast = &f, atLeast
		r.FactorLow, r.FactorHigh = factor(b.Detectable, hi), finite(factor(b.Detectable, lo))
		r.Benchmark, r.Samples = b.Name, b.Shares.Total
		r.Share, r.ShareLow, r.ShareHigh = s, lo, hi
		r.FlatShare = float64(c.Flat) / float64(b.Shares.Total)
	}
	return r
}

// better reports whether factor f (a bound when atLeast) beats the best
// so far: a measured factor beats a bound, then the smaller wins.
func better(f float64, atLeast bool, best float64, bestAtLeast bool) bool {
	if atLeast != bestAtLeast {
		return !atLeast
	}
	return f < best
}

func finite(x float64) float64 {
	if math.IsInf(x, 0) {
		return 0
	}
	return x
}

// sortRows orders rows worst protected first: never, set-up only, then by
// factor, largest first; ties by name.
func sortRows(rows []Row) {
	rank := map[Status]int{Never: 0, SetUp: 1, Timed: 2}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if rank[a.Status] != rank[b.Status] {
			return rank[a.Status] < rank[b.Status]
		}
		if a.Factor != nil && b.Factor != nil && *a.Factor != *b.Factor {
			return *a.Factor > *b.Factor
		}
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		return a.Function < b.Function
	})
}
