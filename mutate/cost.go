package mutate

import "fmt"

// Cost is what an operator's change costs the program, and so which
// metric can see it: an instruction count (perfmut run -measure
// instructions) sees work, not waiting. Every operator sets it; the zero
// value is invalid (operators.Validate), so that adding an operator means
// deciding.
type Cost int

// The kinds of Cost.
const (
	costUnset Cost = iota
	// CostWork is executed instructions (injected loops, allocations,
	// recomputation, a disabled fast path): an instruction count sees it
	// in every benchmark.
	CostWork
	// CostWait is waiting (a sleep, a blocked send): the program executes
	// about the same instructions, only wall time sees it.
	CostWait
	// CostContention is a cost in one goroutine (an uncontended lock and
	// unlock, a spin under a lock) that becomes waiting when goroutines run
	// the site at once. Only wall time sees it: in a concurrent benchmark
	// (b.RunParallel, goroutines, -cpu above 1) it is waiting, and in a
	// sequential one a lock or an atomic costs cycles (a locked
	// instruction, a fence), not instructions: an uncontended lock added in
	// a hot loop of an encoder was +10 to +14% in wall time at a counted
	// ratio of 1.004. It goes with a Contention other than ContentionNone.
	CostContention
	// CostAlloc is allocation (more or larger allocations, growth copies):
	// its instructions (mallocgc, zeroing, copying) and the garbage
	// collector's later work. A count runs with GOGC=off, so it leaves out
	// the collector, and cache misses are cycles, not instructions: a
	// cap-hint drop counted x1.073 was +59.5% in wall time. Only wall time
	// sees all of it (B/op and allocs/op see the allocations too).
	CostAlloc
)

// String is the kind's name: "work", "wait", "contention" or
// "allocation" ("unset" for the zero value).
func (c Cost) String() string {
	switch c {
	case costUnset:
		return "unset"
	case CostWork:
		return "work"
	case CostWait:
		return "wait"
	case CostContention:
		return "contention"
	case CostAlloc:
		return "allocation"
	}
	return fmt.Sprintf("Cost(%d)", int(c))
}

// Valid reports whether c is one of CostWork, CostWait, CostContention,
// CostAlloc.
func (c Cost) Valid() bool { return c >= CostWork && c <= CostAlloc }

// Counted reports whether an instruction count sees a cost of kind c in a
// benchmark that runs the mutated site from one goroutine (concurrent
// false) or from several at once (b.RunParallel, goroutines of its own,
// -cpu above 1): work always, waiting, contention and allocation never
// (see CostContention and CostAlloc). A mutant-benchmark pair that is not counted is
// measured on wall time.
func (c Cost) Counted(concurrent bool) bool {
	return c == CostWork
}
