package runner

import (
	"fmt"
	"sort"
	"strings"
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
func limitSelection(sel selection, n int) selection {
	if n <= 0 || len(sel.benches) <= n {
		return sel
	}
	idx := make([]int, len(sel.benches))
	for i := range idx {
		idx[i] = i
	}
	heat := func(i int) benchHeat {
		if i < len(sel.heat) {
			return sel.heat[i]
		}
		return benchHeat{}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ha, hb := heat(idx[a]), heat(idx[b])
		if ha.perSec != hb.perSec {
			return ha.perSec > hb.perSec
		}
		if ha.perIter != hb.perIter {
			return ha.perIter > hb.perIter
		}
		if ha.count != hb.count {
			return ha.count > hb.count
		}
		ba, bb := sel.benches[idx[a]], sel.benches[idx[b]]
		if ba.Pkg != bb.Pkg {
			return ba.Pkg < bb.Pkg
		}
		return ba.Name < bb.Name
	})
	keep := append([]int(nil), idx[:n]...)
	sort.Ints(keep)
	var left []string
	for _, i := range idx[n:] {
		left = append(left, sel.benches[i].Name)
	}
	sort.Strings(left)
	out := selection{reason: sel.reason}
	for _, i := range keep {
		out.benches = append(out.benches, sel.benches[i])
		out.heat = append(out.heat, heat(i))
	}
	out.note = fmt.Sprintf("measured on %d of %d benchmarks that reach it (the hottest); -max-benchmarks 0 for all; left out: %s",
		n, len(sel.benches), strings.Join(left, ", "))
	return out
}
