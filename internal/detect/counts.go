package detect

import "slices"

// WithCounts returns m with the detectable ratio of each benchmark named
// in d (importpath.BenchmarkX) replaced by d's, taken from instruction
// counts rather than the profiled rounds' wall time, and its rows
// recomputed: a count's spread, far below wall time's, makes the
// benchmark notice smaller slowdowns, so it may now protect a function
// best. The benchmarks keep their profiles (Shares, Grows, Ran), which a
// map read back from JSON lacks: m must be a computed one. m is not
// changed.
func (m *Map) WithCounts(d map[string]float64) *Map {
	out := *m
	out.Benchmarks = slices.Clone(m.Benchmarks)
	for i := range out.Benchmarks {
		b := &out.Benchmarks[i]
		if x, ok := d[b.Name]; ok {
			b.Detectable, b.Counted = x, true
		}
	}
	funcs := make([]FuncID, len(m.Functions))
	for i, r := range m.Functions {
		funcs[i] = FuncID{Package: r.Package, Name: r.Function}
	}
	out.Functions = Rows(funcs, out.Benchmarks)
	return &out
}

// Counted are the names of m's benchmarks whose detectable ratio is from
// instruction counts, in m's order.
func (m *Map) Counted() []string {
	var out []string
	for _, b := range m.Benchmarks {
		if b.Counted {
			out = append(out, b.Name)
		}
	}
	return out
}
