package runner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/perfmut/perfmut/internal/engine"
)

// DefaultMaxBenchmarks is perfmut run's -max-benchmarks: a mutant is
// measured on at most this many of the benchmarks that reach it, so that a
// site reached by dozens of benchmarks does not spread the multiple-testing
// correction over all of them.
const DefaultMaxBenchmarks = 5

// limitSelection keeps the n benchmarks of sel that run the mutated site
// most often per second of their timed loop (an injected cost per
// execution slows them most), those whose time per iteration is unknown
// after them, then per iteration, by raw count when none ran it in the
// loop, ties by package and name. n <= 0 or
// len(sel.benches) <= n returns sel unchanged. The kept benchmarks stay in
// their original order; sel.note says which were left out.
func limitSelection(sel engine.Selection, n int) engine.Selection {
	if n <= 0 || len(sel.Benches) <= n {
		return sel
	}
	idx := make([]int, len(sel.Benches))
	for i := range idx {
		idx[i] = i
	}
	heat := func(i int) engine.BenchHeat {
		if i < len(sel.Heat) {
			return sel.Heat[i]
		}
		return engine.BenchHeat{}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ha, hb := heat(idx[a]), heat(idx[b])
		if ha.PerSec != hb.PerSec {
			return ha.PerSec > hb.PerSec
		}
		if ha.PerIter != hb.PerIter {
			return ha.PerIter > hb.PerIter
		}
		if ha.Count != hb.Count {
			return ha.Count > hb.Count
		}
		ba, bb := sel.Benches[idx[a]], sel.Benches[idx[b]]
		if ba.Pkg != bb.Pkg {
			return ba.Pkg < bb.Pkg
		}
		return ba.Name < bb.Name
	})
	keep := append([]int(nil), idx[:n]...)
	sort.Ints(keep)
	var left []string
	for _, i := range idx[n:] {
		left = append(left, sel.Benches[i].Name)
	}
	sort.Strings(left)
	out := engine.Selection{Reason: sel.Reason}
	for _, i := range keep {
		out.Benches = append(out.Benches, sel.Benches[i])
		out.Heat = append(out.Heat, heat(i))
	}
	out.Note = fmt.Sprintf("measured on %d of %d benchmarks that reach it (the hottest); -max-benchmarks 0 for all; left out: %s",
		n, len(sel.Benches), strings.Join(left, ", "))
	return out
}
