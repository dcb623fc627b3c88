package q3overhead

import "testing"

var sink int

// BenchmarkOverhead runs each variant's loop for b.N iterations: ns/op is
// the cost of one iteration, B/op and allocs/op what one iteration allocates.
func BenchmarkOverhead(b *testing.B) {
	for _, v := range variants {
		b.Run(v.name(), func(b *testing.B) {
			b.ReportAllocs()
			sink = v.sum(b.N)
		})
	}
}

// BenchmarkParallel runs one-iteration loops from GOMAXPROCS goroutines at
// once: where lock-contention's shared mutex is contended.
func BenchmarkParallel(b *testing.B) {
	for _, v := range variants {
		if v.operator != "baseline" && v.operator != "lock-contention" {
			continue
		}
		b.Run(v.name(), func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				s := 0
				for pb.Next() {
					s += v.sum(1)
				}
				if s < 0 {
					sink = s
				}
			})
		})
	}
}

// TestVariantsPreserveBehaviour checks that every mutant computes what the
// baseline does (the operators' changes are performance-only) and that the
// generated table holds each Q3 operator.
func TestVariantsPreserveBehaviour(t *testing.T) {
	want := map[string]bool{"baseline": true, "spin-loop": true, "sleep": true, "alloc-churn": true, "lock-contention": true}
	for _, v := range variants {
		delete(want, v.operator)
		if got, exp := v.sum(7), 21; got != exp {
			t.Errorf("%s: sum(7) = %d, want %d", v.name(), got, exp)
		}
	}
	for op := range want {
		t.Errorf("no variant for %s", op)
	}
}
