package engine

import (
	"testing"
)

// TestResizeCoverIters: a benchmark whose first iteration takes F and the
// others 20 ns (testdata/cold's, slowed by a loaded machine) gets
// coverage runs long enough to evict (past 4,096 iterations) after at most
// maxCoverResizes steps of resizeCoverIters, as coverBenchmarks takes
// them; one step stopped at 625 iterations for F = 2 ms.
func TestResizeCoverIters(t *testing.T) {
	const steady = 20e-9
	for _, first := range []float64{0.5e-3, 2e-3, 5e-3, 10e-3} {
		iters := coverIters(first + steady) // the listing's one iteration
		steps := 0
		for ; steps < maxCoverResizes; steps++ {
			next, ok := resizeCoverIters(iters, first/float64(iters)+steady)
			if !ok {
				break
			}
			iters = next
		}
		if iters < 10000 {
			t.Errorf("first iteration %gs: coverage runs of %d iterations after %d steps, want at least 10000", first, iters, steps)
		}
	}
	if n, ok := resizeCoverIters(1000, 1e-6); !ok || n != 50000 {
		t.Errorf("resizeCoverIters(1000, 1us) = %d, %v; want 50000, true (50ms / 1us > 2 x 1000)", n, ok)
	}
	if _, ok := resizeCoverIters(30000, 1e-6); ok {
		t.Errorf("resizeCoverIters(30000, 1us) grows; want not (50000 < 2 x 30000)")
	}
	if _, ok := resizeCoverIters(100, 0); ok {
		t.Errorf("resizeCoverIters(100, 0) grows; want not (no time per iteration)")
	}
}

// TestMergeRuns: runs at the same count that disagree on a block make it
// timed with no known rate (in varies), whatever its medians; a block
// every run counts alike keeps its counts, setup or timed; a pair whose
// 2N run reads far lower than its N run is a decrease between processes,
// not a wrapped counter.
func TestMergeRuns(t *testing.T) {
	const f = "m/p/a.go"
	prof := func(counts ...int64) map[string][]CovBlock {
		var bs []CovBlock
		for i, c := range counts {
			bs = append(bs, CovBlock{StartLine: 10 * (i + 1), StartCol: 1, EndLine: 10*(i+1) + 1, EndCol: 2, CountN: c})
		}
		return map[string][]CovBlock{f: bs}
	}
	// Blocks: setup (7 every run), timed (N, 2N), random (204, 1, 2 at N;
	// 2, 408, 1 at 2N), never run.
	lo := []map[string][]CovBlock{prof(7, 100, 204, 0), prof(7, 100, 1, 0), prof(7, 100, 2, 0)}
	hi := []map[string][]CovBlock{prof(7, 200, 2, 0), prof(7, 200, 408, 0), prof(7, 200, 1, 0)}
	blocks, varies := mergeRuns(lo, hi)
	got := blocks[f]
	if len(got) != 3 {
		t.Fatalf("blocks %v, want the three that ran", got)
	}
	for i, want := range []struct {
		c2, c3, growth int64
		varies         bool
	}{{7, 7, 0, false}, {100, 200, 100, false}, {2, 3, 1, true}} {
		b := got[i]
		if b.CountN != want.c2 || b.Count2N != want.c3 || b.Growth() != want.growth || varies[f][[2]int{b.StartLine, b.StartCol}] != want.varies {
			t.Errorf("block %d: c2 %d c3 %d growth %d varies %v; want %+v", i, b.CountN, b.Count2N, b.Growth(), varies[f][[2]int{b.StartLine, b.StartCol}], want)
		}
	}
	if !sameCounts(lo[0], prof(7, 100, 204, 0)) || sameCounts(lo[0], lo[1]) {
		t.Errorf("sameCounts: want equal profiles alike and the random block to differ")
	}
	if !decreases(lo[0], hi[0]) || decreases(lo[1], hi[1]) {
		t.Errorf("decreases: want 204 then 2 a decrease, 1 then 408 not")
	}
	for _, tc := range []struct {
		c2, c3, want int64
	}{
		{204, 2, 0},                          // another process ran it less
		{3749975000, 2115048112, 2660040408}, // a wrapped counter (gammazero/deque)
		{1 << 30, 5, 0},                      // a wrap would be 4x more than at N
		{100, 250, 150},
	} {
		if g := (CovBlock{CountN: tc.c2, Count2N: tc.c3}).Growth(); g != tc.want {
			t.Errorf("growth(%d, %d) = %d, want %d", tc.c2, tc.c3, g, tc.want)
		}
	}
}
