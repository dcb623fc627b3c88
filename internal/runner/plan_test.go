package runner

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
)

// TestPlan: -plan builds no mutant of the campaign but counts, from the
// baseline's coverage, the mutants it would not build, build, test,
// measure and kill by inference, with times from the baseline and one
// real mutant build; -within gives the shard count.
func TestPlan(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds a module")
	}
	mod, pkgs := testModule(t, "hot")
	const pkg, file = "example.com/hot/calc", "calc/calc.go"
	small := mkMutant(t, mod, "sum-spin", pkg, file, "func Sum(", "s += x", "s += x\n\t\tfor perfmut_i := 0; perfmut_i < 200; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}")
	small.Operator, small.Op, small.Params = "spin-loop", operators.SpinLoop, map[string]any{"iterations": 200}
	big := mkMutant(t, mod, "sum-spin-big", pkg, file, "func Sum(", "s += x", "s += x\n\t\tfor perfmut_i := 0; perfmut_i < 2000; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}")
	big.Operator, big.Op, big.Params = "spin-loop", operators.SpinLoop, map[string]any{"iterations": 2000}
	unbreak := mkMutant(t, mod, "find-unbreak", pkg, file, "func Find(", "\n\t\t\tbreak", "")
	unused := mkMutant(t, mod, "unused-spin", pkg, file, "func Unused(", "p *= 3", "p *= 3\n\t\tperfmut_sink++")
	orphan := mkMutant(t, mod, "orphan-spin", pkg, file, "func Orphan(", "s += i", "s += i\n\t\tperfmut_sink++")
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, nil, out)
	c.Mutants = append(c.Mutants, small, big, unbreak, unused, orphan)
	c.Levels, c.Benchtime, c.Infer = []string{results.Opt}, "", true
	p, err := c.Plan(context.Background(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	got := p.ByLevel[results.Opt]
	want := results.PlanLevel{NotBuilt: 1, Built: 4, Tested: 2, Measured: 2, Inferred: 1, MeasureRounds: 7.5}
	times := [3]float64{got.BuildSeconds, got.TestSeconds, got.MeasureSeconds}
	got.BuildSeconds, got.TestSeconds, got.MeasureSeconds = 0, 0, 0
	if got != want {
		t.Errorf("plan %+v, want %+v", got, want)
	}
	if times[0] <= 0 || times[1] <= 0 || times[2] <= 0 || p.WallSeconds <= times[2] {
		t.Errorf("times: builds %v, tests %v, measurement %v, wall %v; want all > 0", times[0], times[1], times[2], p.WallSeconds)
	}
	if p.Shards != 1 || p.Within != "1h0m0s" {
		t.Errorf("-within 1h: %d shards (%q), want 1", p.Shards, p.Within)
	}
	if _, err := c.Plan(context.Background(), time.Millisecond); !errors.As(err, new(*inputerr.Error)) {
		t.Errorf("-within 1ms: %v, want an input error (shorter than the baseline)", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("-plan created the results directory %s", out)
	}
}

// hotPlanMutants are TestPlan's mutants of testdata/hot, named by their
// functions as the engine names them.
func hotPlanMutants(t *testing.T, mod mutate.Module) []mutate.Mutant {
	const pkg, file = "example.com/hot/calc", "calc/calc.go"
	small := mkMutant(t, mod, "sum-spin", pkg, file, "func Sum(", "s += x", "s += x\n\t\tfor perfmut_i := 0; perfmut_i < 200; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}")
	small.Operator, small.Op, small.Params, small.Function = "spin-loop", operators.SpinLoop, map[string]any{"iterations": 200}, "Sum"
	big := mkMutant(t, mod, "sum-spin-big", pkg, file, "func Sum(", "s += x", "s += x\n\t\tfor perfmut_i := 0; perfmut_i < 2000; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}")
	big.Operator, big.Op, big.Params, big.Function = "spin-loop", operators.SpinLoop, map[string]any{"iterations": 2000}, "Sum"
	unbreak := mkMutant(t, mod, "find-unbreak", pkg, file, "func Find(", "\n\t\t\tbreak", "")
	unbreak.Function = "Find"
	unused := mkMutant(t, mod, "unused-spin", pkg, file, "func Unused(", "p *= 3", "p *= 3\n\t\tperfmut_sink++")
	unused.Function = "Unused"
	orphan := mkMutant(t, mod, "orphan-spin", pkg, file, "func Orphan(", "s += i", "s += i\n\t\tperfmut_sink++")
	orphan.Function = "Orphan"
	return []mutate.Mutant{small, big, unbreak, unused, orphan}
}

// TestQuickPlan: the quick plan runs no baseline step (no coverage run, no
// results directory) and counts, from the benchmarks and tests that name
// each mutant's function, what TestPlan's exact plan counts from coverage;
// its low and high bounds assume one benchmark and no test, and every
// benchmark and test of the importing packages.
func TestQuickPlan(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	mod, pkgs := testModule(t, "hot")
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, nil, out)
	c.Mutants = hotPlanMutants(t, mod)
	c.Levels, c.Benchtime, c.Infer, c.Verbose = []string{results.Opt}, "", true, true
	var log bytes.Buffer
	c.Log = &log
	p, err := c.QuickPlan(context.Background(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Quick
	if q == nil {
		t.Fatal("no Quick part in a quick plan")
	}
	counts := func(l results.PlanLevel) results.PlanLevel {
		return results.PlanLevel{NotBuilt: l.NotBuilt, Built: l.Built, Tested: l.Tested, Measured: l.Measured, Inferred: l.Inferred}
	}
	for _, tc := range []struct {
		name      string
		got, want results.PlanLevel
	}{
		{"likely", counts(p.ByLevel[results.Opt]), results.PlanLevel{NotBuilt: 1, Built: 4, Tested: 2, Measured: 2, Inferred: 1}},
		{"low", counts(q.Low[results.Opt]), results.PlanLevel{NotBuilt: 2, Built: 3, Tested: 0, Measured: 2, Inferred: 1}},
		{"high", counts(q.High[results.Opt]), results.PlanLevel{NotBuilt: 0, Built: 5, Tested: 3, Measured: 4, Inferred: 1}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
	if r := p.ByLevel[results.Opt].MeasureRounds; r != 7.5 {
		t.Errorf("rounds per measured mutant %v, want 7.5 (as the exact plan)", r)
	}
	if q.Benchmarks != 3 || q.Tests != 6 {
		t.Errorf("found %d benchmarks and %d tests, want 3 and 6", q.Benchmarks, q.Tests)
	}
	if len(q.Timed) != 1 || q.Timed[0].Package != "example.com/hot/calc" || q.Timed[0].MutantBuildSeconds <= 0 || q.Timed[0].TestSeconds <= 0 {
		t.Errorf("timed %+v, want calc's builds and tests", q.Timed)
	}
	if !(q.WallLow <= p.WallSeconds && p.WallSeconds <= q.WallHigh && q.WallLow > 0) {
		t.Errorf("wall %v not within (%v, %v)", p.WallSeconds, q.WallLow, q.WallHigh)
	}
	if p.Shards != 1 || q.ShardsHigh != 1 || q.NoFit {
		t.Errorf("-within 1h: %d shards (high %d, no fit %v), want 1", p.Shards, q.ShardsHigh, q.NoFit)
	}
	if strings.Contains(log.String(), "-test.coverprofile") || strings.Contains(log.String(), "-cover") {
		t.Errorf("the quick plan ran a coverage step:\n%s", log.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("-plan created the results directory %s", out)
	}
	if p, err := c.QuickPlan(context.Background(), time.Millisecond); err != nil || !p.Quick.NoFit || p.Shards < 1 {
		t.Errorf("-within 1ms: %v, %+v; want no fit and a shard count", err, p)
	}
}

// TestScanSource: what testdata/hot's benchmarks and tests name, directly
// or not, across packages and test files.
func TestScanSource(t *testing.T) {
	_, pkgs := testModule(t, "hot")
	g := scanSource(pkgs)
	reached := func(pkg string, roots map[string][]srcRoot) map[string]string {
		out := map[string]string{}
		for _, r := range roots[pkg] {
			s := g.Reach(r.ID)
			var fns []string
			for _, fn := range []string{"Sum", "Find", "Prepare", "Unused", "Orphan"} {
				if s.Has(g.IDs[srcKey("example.com/hot/calc", fn)]) {
					fns = append(fns, fn)
				}
			}
			out[r.Name] = strings.Join(fns, " ")
		}
		return out
	}
	for _, tc := range []struct {
		what string
		got  map[string]string
		want map[string]string
	}{
		{"calc benchmarks", reached("example.com/hot/calc", g.Benches), map[string]string{"BenchmarkSum": "Sum Prepare", "BenchmarkFind": "Find Prepare"}},
		{"app benchmarks", reached("example.com/hot/app", g.Benches), map[string]string{"BenchmarkTotalParallel": "Sum Prepare"}},
		{"app tests", reached("example.com/hot/app", g.Tests), map[string]string{"TestTotal": "Sum", "TestTotalUnused": "Sum Unused"}},
	} {
		if fmt.Sprint(tc.got) != fmt.Sprint(tc.want) {
			t.Errorf("%s reach %v, want %v", tc.what, tc.got, tc.want)
		}
	}
	if !g.TestFiles["example.com/hot/calc"] || !g.TestFiles["example.com/hot/app"] {
		t.Errorf("test files: %v", g.TestFiles)
	}
}

// TestQuickPlanBudget: a timing budget that runs out during the first
// build keeps that build's time as a lower bound, and an interrupted plan
// is an error, not a plan.
func TestQuickPlanBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	mod, pkgs := testModule(t, "hot")
	c := newTestCampaign(t, mod, pkgs, hotPlanMutants(t, mod), filepath.Join(t.TempDir(), "out"))
	c.Levels = []string{results.Opt}
	r, done, err := c.planRun(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if _, err := r.judgingPackages(map[string]bool{"example.com/hot/calc": true}); err != nil {
		t.Fatal(err)
	}
	g := scanSource(pkgs)
	qs := r.c.quickJudging(g, r.base.affected)
	qt := quickTimer{r.c, r.Engine, r.pkgs, r.base.affected}
	timed, err := qt.timePackages(context.Background(), g, qs, time.Millisecond)
	if err != nil || len(timed) != 1 || !timed[0].BuildStopped || timed[0].MutantBuildSeconds <= 0 {
		t.Errorf("1ms budget: %+v, %v; want calc's first build, stopped", timed, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if timed, err := qt.timePackages(ctx, g, qs, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted: %+v, %v; want context.Canceled", timed, err)
	}
}

func TestUncached(t *testing.T) {
	files := map[string][]byte{"/m/a.go": []byte("package a\n"), "/m/perfmut_helpers.go": []byte("package a\n\nvar x int\n")}
	a, b := uncached(files), uncached(files)
	for name, src := range files {
		if !bytes.HasPrefix(a[name], src) || !bytes.HasSuffix(a[name], []byte("\n")) || bytes.Equal(a[name], src) || bytes.Equal(a[name], b[name]) {
			t.Errorf("%s: %q then %q from %q: want the source and a different comment each time", name, a[name], b[name], src)
		}
	}
	if string(files["/m/a.go"]) != "package a\n" {
		t.Errorf("uncached changed its input: %q", files["/m/a.go"])
	}
}

func TestPlanModeFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want PlanMode
		err  string
	}{
		{nil, "", ""},
		{[]string{"-plan"}, planQuick, ""},
		{[]string{"-plan=quick"}, planQuick, ""},
		{[]string{"-plan=exact"}, planExact, ""},
		{[]string{"-plan=false"}, "", ""},
		{[]string{"-plan=fast"}, "", "bad -plan=fast: want -plan (quick: from the source and a few timed builds) or -plan=exact (after the baseline steps)"},
	} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var p PlanMode
		fs.Var(&p, "plan", "")
		err := fs.Parse(tc.args)
		if p != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: %q, %v; want %q, %q", tc.args, p, err, tc.want, tc.err)
		}
		if p.On() != (tc.want != "") {
			t.Errorf("%v: On() = %v", tc.args, p.On())
		}
	}
}

// TestTestCost: the selected tests of a package run in one process; its
// start counts once (the quickest coverage run), not once per test.
func TestTestCost(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	r := &run{
		cov: coverage{tests: map[string]*engine.TestCoverage{
			"a": {Time: map[string]time.Duration{"TestQuick": ms(40), "TestSlow": ms(540), "TestMid": ms(100)}},
			"b": {Time: map[string]time.Duration{}},
		}},
		base: baseline{testTime: map[string]map[string]time.Duration{results.Opt: {"a": ms(900), "b": ms(300), "c": ms(70)}}},
	}
	for _, tc := range []struct {
		sel  testSelection
		want time.Duration
	}{
		{testSelection{"a": {"TestSlow"}}, ms(540)},
		{testSelection{"a": {"TestSlow", "TestMid"}}, ms(40 + 500 + 60)},
		{testSelection{"a": {"TestSlow", "TestMid", "TestQuick"}}, ms(600)},
		{testSelection{"a": nil}, ms(900)},
		{testSelection{"a": {"TestMid"}, "c": nil}, ms(100 + 70)},
		{testSelection{"b": {"TestGone"}}, 0},
	} {
		if got := r.testCost(results.Opt, tc.sel); got != tc.want {
			t.Errorf("testCost(%v) = %v, want %v", tc.sel, got, tc.want)
		}
	}
}
