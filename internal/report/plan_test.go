package report

import (
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
)

func TestWritePlan(t *testing.T) {
	lv := func(notBuilt, built, tested, measured int, build, test, measure float64) results.PlanLevel {
		return results.PlanLevel{NotBuilt: notBuilt, Built: built, Tested: tested, Measured: measured, BuildSeconds: build, TestSeconds: test, MeasureSeconds: measure, MeasureRounds: 7.5}
	}
	exact := &results.Plan{Module: "example.com/m", Mutants: 5, Levels: []string{results.Opt}, Jobs: 2,
		Baseline: results.BaselineTimes{BuildTestSeconds: 4, BenchCoverageSeconds: 2, TestCoverageSeconds: 1},
		ByLevel:  map[string]results.PlanLevel{results.Opt: lv(1, 4, 2, 2, 20, 3, 60)}, WallSeconds: 78, Within: "30m0s", Shards: 1}
	quick := *exact
	quick.Within, quick.Shards = "1m0s", 2
	quick.Quick = &results.QuickPlan{Low: map[string]results.PlanLevel{results.Opt: lv(2, 3, 0, 2, 10, 0, 30)}, High: map[string]results.PlanLevel{results.Opt: lv(0, 5, 3, 4, 40, 9, 120)},
		WallLow: 42, WallHigh: 160, ShardsHigh: 4, NoFit: false, Benchmarks: 3, Tests: 6, Seconds: 3.2,
		Timed: []results.TimedPackage{{Package: "example.com/m/calc", FirstBuildSeconds: 1.2, MutantBuildSeconds: 0.9, TestSeconds: 0.4, StartSeconds: 0.01}}}
	noFit := quick
	q := *quick.Quick
	q.NoFit, noFit.Quick, noFit.Within, noFit.Shards = true, &q, "5s", 15
	for _, tc := range []struct {
		name string
		p    *results.Plan
		want string
	}{
		{"exact", exact, `plan for example.com/m: 5 mutants at opt
baseline (measured): 4s build and test, 2s benchmark coverage, 1s test coverage

expected                                                opt
not built (no benchmark reaches them, no test to run)     1
built                                                     4
tested                                                    2
measured                                                  2
killed by inference                                       0
builds (summed)                                         20s
tests (summed)                                           3s
measurement                                            1m0s
rounds per measured mutant                              7.5

expected wall time: 1m18s (builds and tests on 2 workers, measurement alone)
-within 30m0s: -shard k/1 (each shard about 1m18s, baseline included)
`},
		{"quick", &quick, `quick plan for example.com/m: 5 mutants at opt, made in 3s without the baseline steps
found in the source: 3 benchmarks, 6 tests
timed example.com/m/calc: first build 1s, mutant build 1s, tests 0s
baseline (estimated): 4s build and test, 2s benchmark coverage, 1s test coverage

expected                                                              opt
not built (no benchmark reaches them, no test to run)          1 (0 to 2)
built                                                          4 (3 to 5)
tested                                                         2 (0 to 3)
measured                                                       2 (2 to 4)
killed by inference                                                     0
builds (summed)                                          20s (10s to 40s)
tests (summed)                                              3s (0s to 9s)
measurement                                            1m0s (30s to 2m0s)
rounds per measured mutant                                            7.5

expected wall time: 1m18s (42s to 2m40s) (builds and tests on 2 workers, measurement alone)
-within 1m0s: -shard k/2 (each shard about 43s, baseline included)
  at the high end: -shard k/4
The quick plan reads reach from function names, not coverage (an over-estimate of what is measured for direct calls);
the ranges: low = one benchmark, one build, no test per mutant; high = every benchmark and test of the importing packages.
-plan=exact runs the baseline steps and a real mutant build for a plan from coverage.
`},
		{"no fit", &noFit, "-within 5s: no shard count fits: every shard repeats the baseline steps, estimated at 7s alone;\n  with -shard k/15 each shard's mutants take about 5s more (-opt on or fewer packages per campaign shorten the baseline)\n" +
			"  the baseline steps (7s) take half of -within or more in every shard: -within 30m0s would need -shard k/1\n"},
	} {
		var b strings.Builder
		if err := WritePlan(&b, tc.p); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); tc.name == "no fit" && !strings.Contains(got, tc.want) || tc.name != "no fit" && got != tc.want {
			t.Errorf("%s plan:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
}

func TestLongerWindow(t *testing.T) {
	for _, tc := range []struct {
		within     string
		base, wall float64 // seconds
		w          string
		n          int
		ok         bool
	}{
		{"30m0s", 28 * 60, 100 * 3600, "1h0m0s", 187, true}, // (100 h - 28 m) / 32 m = 186.6
		{"30m0s", 14 * 60, 10 * 3600, "", 0, false},
		{"30m0s", 15 * 60, 10 * 3600, "30m0s", 39, true},
		{"1h0m0s", 50 * 60, 50 * 60, "2h0m0s", 1, true},
		{"", 50 * 60, 3600, "", 0, false},
	} {
		p := &results.Plan{Within: tc.within, WallSeconds: tc.wall, Baseline: results.BaselineTimes{BuildTestSeconds: tc.base}}
		if w, n, ok := longerWindow(p); w != tc.w || n != tc.n || ok != tc.ok {
			t.Errorf("-within %s, baseline %vs, wall %vs: %q, %d, %v; want %q, %d, %v", tc.within, tc.base, tc.wall, w, n, ok, tc.w, tc.n, tc.ok)
		}
	}
}
