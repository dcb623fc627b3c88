// Package q3overhead measures the minimal overhead of the code perfmut's Q3
// operators (spin-loop, sleep, alloc-churn, lock-contention) inject into a
// loop, like the SlowCoach paper's Table III.
//
// variants_gen.go holds testdata/loop's Sum and one copy of it per mutant,
// exactly as the operators mutate it (TestGenerated keeps it in sync). Each
// benchmark runs one variant's loop for b.N iterations, so ns/op is the cost
// of one loop iteration; a mutant's overhead is its ns/op minus the
// baseline's. Run them with and without optimizations:
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
