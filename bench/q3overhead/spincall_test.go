package q3overhead

import (
	"fmt"
	"testing"
)

// BenchmarkSpinCall calls spin-loop's helper with n iterations once per
// benchmark iteration: ns/op is a + b*n, where b is the cost of one spin
// iteration (spin-loop's LoopCost per iteration) and a the cost of the
// call itself (the call, the loop's set-up and the atomic add), which
// LoopCost adds once per call. n = 0 gives a alone; the larger n fit b.
func BenchmarkSpinCall(b *testing.B) {
	for _, n := range []int{0, 1, 10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for range b.N {
				perfmut_spin(n)
			}
		})
	}
}
