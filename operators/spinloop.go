package operators

import (
	"fmt"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// SpinLoop burns CPU at the start of every loop body.
var SpinLoop = &mutate.Operator{
	Name:     "spin-loop",
	Quadrant: mutate.Q3,
	Cost:     mutate.CostWork,
	Inert:    true,
	Size:     "iterations",
	Options: &config.Section{Key: "spin-loop", New: func() any {
		return &SpinLoopOptions{Iterations: []int{1e4, 1e5, 1e6}}
	}},
	Doc: mutate.Doc{
		Title: "spin at the start of every loop iteration",
		Body: `Inserts a call to a useless loop of N iterations (spin-loop.iterations in
the configuration; default 1e4, 1e5 and 1e6, one mutant per loop and size) at
the start of every for and range body. The helper sums a package-level array
that nothing writes and adds the sum to a package-level atomic counter, so the
compiler cannot drop the work and -race has nothing to report.`,
		Before: `for _, x := range xs {
	sum += x
}`,
		After: `for _, x := range xs { perfmut_spin(10000);
	sum += x
}`,
	},
	LoopCost: func(params map[string]any, optimized bool) (float64, bool) {
		n, ok := mutate.ParamNumber(params["iterations"])
		return spinCallNanos(optimized) + n*spinNanos(optimized), ok
	},
	Helper:        spinHelper,
	HelperImports: []string{"sync/atomic"},
	Run:           runSpinLoop,
}

// spinNanos is the cost of one iteration of spin-loop's helper, from Table
// III of docs/evaluation.md (bench/q3overhead): 0.7 ns with optimizations,
// about twice that without.
func spinNanos(optimized bool) float64 {
	if optimized {
		return 0.7
	}
	return 1.4
}

// spinCallNanos is the cost of one call of spin-loop's helper besides its
// iterations (the call, the loop's set-up and the atomic add): about 5 ns
// with optimizations and 10 without, the fastest of 20 runs of
// bench/q3overhead's BenchmarkSpinCall/n=0.
func spinCallNanos(optimized bool) float64 {
	if optimized {
		return 5
	}
	return 10
}

// spinNames are the helper's identifiers and import names.
var spinNames = helperNames{calls: []string{"perfmut_spin"}, pkgLevel: []string{"perfmut_spinData", "perfmut_spinSink", "atomic"}}

// SpinLoopOptions are spin-loop's options, the spin-loop: section of the
// configuration.
type SpinLoopOptions struct {
	Iterations []int `yaml:"iterations"` // default 1e4, 1e5, 1e6
}

// Validate checks the sizes.
func (o *SpinLoopOptions) Validate() error {
	return inRange("iterations", o.Iterations, 1, 1e9, "spin-loop iterations must be between 1 and 1e9")
}

func runSpinLoop(pass *mutate.Pass) {
	var sizes []q3Size
	for _, n := range uniqueSorted(pass.Options.(*SpinLoopOptions).Iterations, func(n int) bool { return n > 0 }) {
		sizes = append(sizes, q3Size{
			stmt:   fmt.Sprintf("perfmut_spin(%d)", n),
			params: map[string]any{"iterations": n},
			desc:   fmt.Sprintf("spin %d iterations per loop iteration", n),
		})
	}
	insertAtLoops(pass, sizes, spinNames)
}

// spinHelper is spin-loop's helper; critical-spin uses it with its own
// identifiers.
const spinHelper = `// perfmut_spinData is read, never written, by perfmut_spin.
var perfmut_spinData [1024]uint64

// perfmut_spinSink keeps perfmut_spin's result alive.
var perfmut_spinSink atomic.Uint64

// perfmut_spin runs a useless loop of n iterations.
//
//go:noinline
func perfmut_spin(n int) {
	var s uint64
	for i := 0; i < n; i++ {
		s = s*1 + perfmut_spinData[i&1023] + uint64(i)
	}
	perfmut_spinSink.Add(s)
}
`
