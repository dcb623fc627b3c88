// Package spincost measures the cost of spin-loop's helper on this
// machine now: BenchmarkSpin/0 is one call's, the slope from 0 to 1000 one
// iteration's (bench/sensitivity-agree.sh). The helper below is spin-loop's,
// verbatim (detect's TestSpinCostHelper keeps it so).
package spincost

import (
	"strconv"
	"sync/atomic"
	"testing"
)

// perfmut_spinData is read, never written, by perfmut_spin.
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

func BenchmarkSpin(b *testing.B) {
	for _, n := range []int{0, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				perfmut_spin(n)
			}
		})
	}
}
