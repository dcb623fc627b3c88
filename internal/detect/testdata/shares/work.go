// Package shares has functions with known shares of its benchmark's time:
// Half about half, Small about 1 %, Prepare only before the timed loop,
// Unused never.
package shares

// spin does n units of work that the compiler cannot remove.
//
//go:noinline
func spin(x uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// Half does 50 of the benchmark's 100 units per iteration.
//
//go:noinline
func Half(x uint64) uint64 { return spin(x, 5000) }

// Rest does 49 units.
//
//go:noinline
func Rest(x uint64) uint64 { return spin(x, 4900) }

// Small does 1 unit.
//
//go:noinline
func Small(x uint64) uint64 { return spin(x, 100) }

// Prepare is the benchmark's set-up: it runs before the timed loop.
//
//go:noinline
func Prepare() uint64 { return spin(1, 20_000_000) }

// Unused is run by no benchmark.
func Unused(x uint64) uint64 { return spin(x, 3) }
