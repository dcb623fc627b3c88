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

// BenchmarkSites runs one execution of a sites.go function per iteration:
// ns/op is the cost of one execution of the site (a critical section, an
// atomic operation, a pool Get and Put, a goroutine handing over a value).
func BenchmarkSites(b *testing.B) {
	for _, v := range siteVariants {
		b.Run(v.name(), func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for i := range b.N {
				s += v.call(i)
			}
			sink = s
		})
	}
}

// BenchmarkSitesParallel runs the executions from GOMAXPROCS goroutines at
// once: where a shared lock or counter is contended.
func BenchmarkSitesParallel(b *testing.B) {
	for _, v := range siteVariants {
		b.Run(v.name(), func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				s := 0
				for i := 0; pb.Next(); i++ {
					s += v.call(i)
				}
				if s == -1 {
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
	want = map[string]bool{"critical-spin": true, "rlock-to-lock": true, "atomic-to-mutex": true, "pool-bypass": true, "chan-unbuffer": true, "tail-spike": true}
	base := map[string]func(int) int{}
	for _, v := range siteVariants {
		if v.operator == "baseline" {
			base[v.function] = v.call
			continue
		}
		delete(want, v.operator)
		if v.function == "Count" { // a counter: compare the increments
			before := siteCount.Load()
			if got := v.call(7); int64(got) != before+7 {
				t.Errorf("%s: call(7) = %d after %d, want %d", v.name(), got, before, before+7)
			}
			continue
		}
		if got, exp := v.call(7), base[v.function](7); got != exp {
			t.Errorf("%s: call(7) = %d, baseline %d", v.name(), got, exp)
		}
	}
	for op := range want {
		t.Errorf("no site variant for %s", op)
	}
}
