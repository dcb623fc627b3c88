// Package q3overhead measures the minimal overhead of the code perfmut's Q3
// operators (spin-loop, sleep, alloc-churn, lock-contention, tail-spike)
// inject into a loop, like the SlowCoach paper's Table III, and of what the
// concurrency operators (critical-spin, tail-spike, rlock-to-lock,
// atomic-to-mutex, pool-bypass, chan-unbuffer) change at one execution of a
// synchronization site.
//
// variants_gen.go holds testdata/loop's Sum and one copy of it per mutant,
// and each function of testdata/loop/sites.go with one copy per mutant,
// exactly as the operators mutate them (TestGenerated keeps it in sync).
// BenchmarkOverhead runs one variant's loop for b.N iterations, so ns/op is
// the cost of one loop iteration; BenchmarkSites runs one execution of a
// site per iteration. A mutant's overhead is its ns/op minus its baseline's.
// The Parallel benchmarks do the same from GOMAXPROCS goroutines. Run them
// with and without optimizations:
//
//	go test -run '^$' -bench . ./bench/q3overhead
//	go test -run '^$' -bench . -gcflags=all='-N -l' ./bench/q3overhead
//
// or bash bench/q3overhead.sh, which prints the table.
package q3overhead

// A variant is the baseline loop or one mutant of it.
type variant struct {
	operator string // "baseline" for the unmutated loop
	params   string // e.g. "iterations=10000"
	sum      func(n int) int
}

// name is the variant's sub-benchmark name.
func (v variant) name() string {
	if v.params == "" {
		return v.operator
	}
	return v.operator + "/" + v.params
}

// A siteVariant is the original or one mutant of a function of
// testdata/loop/sites.go: one execution of a synchronization site.
type siteVariant struct {
	function string // e.g. "Locked"
	operator string // "baseline" for the original
	params   string
	call     func(x int) int
}

// name is the variant's sub-benchmark name.
func (v siteVariant) name() string {
	n := v.function + "/" + v.operator
	if v.params != "" {
		n += "/" + v.params
	}
	return n
}
