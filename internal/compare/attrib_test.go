package compare

import (
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestNextIters: a round whose samples held half ProfileTime of CPU time
// or more keeps its runs; one with less grows them towards ProfileTime,
// never beyond maxIterScale times the first round's.
func TestNextIters(t *testing.T) {
	target := float64(profileTime.Nanoseconds())
	for _, tc := range []struct {
		n, n0 int
		cpu   float64
		want  int
	}{
		{1000, 1000, target, 1000},
		{1000, 1000, target / 2, 1000},
		{1000, 1000, target / 4, 4000},
		{1000, 1000, 0, 8000},
		{4000, 1000, target / 4, 8000},
	} {
		if got := nextIters(tc.n, tc.n0, tc.cpu); got != tc.want {
			t.Errorf("nextIters(%d, %d, %g) = %d, want %d", tc.n, tc.n0, tc.cpu, got, tc.want)
		}
	}
}

// TestExplains: the modes' verdicts.
func TestExplains(t *testing.T) {
	for mode, want := range map[string][4]bool{
		AttributeChanged:   {true, true, false, false},
		attributeUndecided: {true, true, false, true},
		attributeOff:       {false, false, false, false},
	} {
		c := &Comparison{Attribute: mode}
		for i, v := range []score.ChangeVerdict{score.Slower, score.Faster, score.Same, score.Unsure} {
			if got := c.explains(v); got != want[i] {
				t.Errorf("-attribute %s explains %s: %v, want %v", mode, v, got, want[i])
			}
		}
	}
	c := &Comparison{Attribute: "all"}
	if err := c.checkAttribute(); err == nil || err.Error() != `-attribute "all": want changed, undecided or off` {
		t.Errorf("checkAttribute: %v", err)
	}
}

// TestBehaviourSummary: a changed behaviour's line names the functions'
// shares and leaves out the stacks that say the same.
func TestBehaviourSummary(t *testing.T) {
	bh := &results.Behaviour{Changed: true, Entries: 3, OldClusters: 1, Diffs: []results.BehaviourDiff{
		{Feature: "cpu example.com/beh/mix.f", Old: 0.78, New: 0.15},
		{Feature: "stack example.com/beh/mix.BenchmarkMix > example.com/beh/mix.Mix > example.com/beh/mix.f", Old: 0.78, New: 0.15},
		{Feature: "gc", Old: 0.02, New: 0.1},
		{Feature: "alloc example.com/beh/mix.g", Old: 0, New: 1},
	}}
	want := "behaviour changed: BenchmarkMix: mix.f's share of the CPU time 78% -> 15%, the garbage collector's share of the CPU time 2% -> 10%, mix.g's share of the allocated bytes 0% -> 100%; NEW matches none of OLD's 1 cluster learned from 3 recorded behaviours on this machine"
	if got := behaviourSummary("BenchmarkMix", bh); got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
	bh.Diffs = bh.Diffs[1:2]
	if got := behaviourSummary("BenchmarkMix", bh); got != "behaviour changed: BenchmarkMix: the stack mix.BenchmarkMix > mix.Mix > mix.f's share of the CPU time 78% -> 15%; NEW matches none of OLD's 1 cluster learned from 3 recorded behaviours on this machine" {
		t.Errorf("stacks only: %s", got)
	}
	if versionID(results.CompareSide{Rev: "WORKTREE", Commit: "abc"}) == versionID(results.CompareSide{Rev: "HEAD", Commit: "abc"}) {
		t.Error("the working tree has the version of its commit")
	}
}

// TestMeasuredTime: the profiled samples' iteration count comes from the
// measured time per op of the slower side; a side whose samples were
// censored is timed again, and so are both when the comparison counted
// instructions (no sec/op: the measured iteration count is a short
// sample's, which would leave the profiles a few CPU samples a round).
func TestMeasuredTime(t *testing.T) {
	for _, tc := range []struct {
		ms     []results.CompareMetric
		slow   float64
		retime [2]bool
	}{
		{[]results.CompareMetric{{Metric: "sec/op", Old: 2e-6, New: 3e-6}, {Metric: "B/op"}}, 3e-6, [2]bool{}},
		{[]results.CompareMetric{{Metric: "sec/op", Old: 2e-6, New: 3e-6, NewCensored: []int{4}}}, 3e-6, [2]bool{false, true}},
		{[]results.CompareMetric{{Metric: "instructions/op", Old: 160e3, New: 160e3}, {Metric: "B/op"}}, 0, [2]bool{true, true}},
	} {
		if slow, retime := measuredTime(tc.ms); slow != tc.slow || retime != tc.retime {
			t.Errorf("measuredTime(%v) = %v, %v; want %v, %v", tc.ms, slow, retime, tc.slow, tc.retime)
		}
	}
}

// TestProfileRuns: a profiled sample runs the measurement's iteration
// count (the deque's BenchmarkInsert inserts into the middle of b.N
// elements: at 10 times the count, each op costs 10 times as much), as
// many times as make about ProfileTime; when one run of that count
// would take longer (a spin-loop mutant 50 times slower than the
// baseline, its samples censored: at the measured count, a minute under
// load), and without a measured count, about ProfileTime's iterations
// once.
func TestProfileRuns(t *testing.T) {
	for _, tc := range []struct {
		iters   int
		slow    float64
		n, runs int
	}{
		{1000, 20e-6, 1000, 10}, // 20 ms samples: 10 runs
		{1000, 200e-6, 1000, 1}, // 200 ms samples: one run
		{1000, 1e-3, 200, 1},    // 1 s samples: 200 ms of iterations
		{10, 1e-9, 10, maxRuns}, // 10 ns samples: at most maxRuns
		{1000, 0, 1000, 1},      // no time: one run
		{0, 1e-3, 200, 1},       // no count: about ProfileTime
		{0, 0, 1, 1},
	} {
		if n, runs := profileRuns(tc.iters, tc.slow); n != tc.n || runs != tc.runs {
			t.Errorf("profileRuns(%d, %g) = %d, %d; want %d, %d", tc.iters, tc.slow, n, runs, tc.n, tc.runs)
		}
	}
}
