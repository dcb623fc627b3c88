package operators

import (
	"fmt"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
)

// AllocChurn allocates at the start of every loop body.
var AllocChurn = &mutate.Operator{
	Name:     "alloc-churn",
	Quadrant: mutate.Q3,
	Cost:     mutate.CostAlloc,
	Inert:    true,
	Size:     "bytes",
	Options: &config.Section{Key: "alloc-churn", New: func() any {
		return &AllocChurnOptions{Bytes: []int{1024}}
	}},
	Doc: mutate.Doc{
		Title: "allocate at the start of every loop iteration",
		Body: `Inserts a heap allocation of N bytes (alloc-churn.bytes; default 1024) at the
start of every for and range body. The helper publishes the new block in a
package-level pointer (atomically, so -race stays quiet), so it escapes: one
allocation of N bytes per iteration shows in B/op and allocs/op, and the
garbage collector has work. The helper uses no generics, so it works in
modules of any go version.`,
		Before: `for _, x := range xs {
	sum += x
}`,
		After: `for _, x := range xs { perfmut_alloc(1024);
	sum += x
}`,
	},
	Helper: `// perfmut_allocSink makes perfmut_alloc's blocks escape.
var perfmut_allocSink unsafe.Pointer

// perfmut_alloc allocates n bytes on the heap.
//
//go:noinline
func perfmut_alloc(n int) {
	b := make([]byte, n)
	atomic.StorePointer(&perfmut_allocSink, unsafe.Pointer(&b[0]))
}
`,
	HelperImports: []string{"sync/atomic", "unsafe"},
	Run:           runAllocChurn,
}

// allocNames are the helper's identifiers and import names.
var allocNames = helperNames{calls: []string{"perfmut_alloc"}, pkgLevel: []string{"perfmut_allocSink", "atomic", "unsafe"}}

// AllocChurnOptions are alloc-churn's options, the alloc-churn: section of
// the configuration.
type AllocChurnOptions struct {
	Bytes []int `yaml:"bytes"` // default 1024
}

// Validate checks the sizes.
func (o *AllocChurnOptions) Validate() error {
	return inRange("bytes", o.Bytes, 1, 1<<30, "alloc-churn bytes must be between 1 and 1GiB")
}

func runAllocChurn(pass *mutate.Pass) {
	var sizes []q3Size
	for _, n := range uniqueSorted(pass.Options.(*AllocChurnOptions).Bytes, func(n int) bool { return n > 0 }) {
		sizes = append(sizes, q3Size{
			stmt:   fmt.Sprintf("perfmut_alloc(%d)", n),
			params: map[string]any{"bytes": n},
			desc:   fmt.Sprintf("allocate %d bytes per loop iteration", n),
		})
	}
	insertAtLoops(pass, sizes, allocNames)
}
