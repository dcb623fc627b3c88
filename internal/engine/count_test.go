package engine

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestMetricChoice: each verdict says which metric it rests on and why.
func TestMetricChoice(t *testing.T) {
	for _, tc := range []struct {
		op             *mutate.Operator
		counted, timed int
		counting       bool
		metric, why    string
	}{
		{operators.SpinLoop, 2, 0, true, "instructions/op", "work: an instruction count sees it"},
		{operators.Sleep, 0, 2, true, "sec/op", "wait: only wall time sees it"},
		{operators.AllocChurn, 0, 1, true, "sec/op", "allocation: a count leaves out the garbage collector (GOGC=off); only wall time sees it"},
		{operators.LockContention, 0, 1, true, "sec/op", "contention: a lock or an atomic costs cycles, not instructions; only wall time sees it"},
		{operators.SpinLoop, 1, 1, true, "instructions/op and sec/op", "work: counted where a count sees it, wall time on the other benchmarks"},
		{operators.SpinLoop, 0, 2, false, "sec/op", "-measure time"},
		{nil, 1, 0, true, "instructions/op", "trial: an instruction count sees it"},
	} {
		got := metricChoice(tc.op, tc.counted, tc.timed, tc.counting)
		if got != (MetricChoice{Metric: tc.metric, Why: tc.why}) {
			t.Errorf("%s (%d counted, %d timed, counting %v) = %+v, want %q, %q", opName(tc.op), tc.counted, tc.timed, tc.counting, got, tc.metric, tc.why)
		}
	}
}

// TestContentionOnSerialBenchmarkTimed: a lock-contention mutant on a
// serial benchmark is measured on wall time, which sees the cycles of an
// uncontended lock; an instruction count barely does (a lock in a hot
// loop of an encoder: x1.004 counted, +10 to +14% wall time). A work
// mutant on the same benchmark is counted.
func TestContentionOnSerialBenchmarkTimed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]*mutate.Package{"example.com/p": {ImportPath: "example.com/p", Dir: dir}}
	c := &Config{Measurement: Measurement{Counting: &Counting{}}}
	b := Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial"}
	var cs countState
	if cs.counted(c, pkgs, operators.LockContention, b) {
		t.Errorf("lock-contention on %s is counted, want wall time", b.Name)
	}
	if !cs.counted(c, pkgs, operators.SpinLoop, b) {
		t.Errorf("spin-loop on %s is not counted", b.Name)
	}
}

// TestUncountableBaseline: a baseline benchmark valgrind cannot count
// (here every run is stopped by SIGILL) is measured on wall time, with one
// warning, and is not tried again by later jobs; the campaign goes on.
func TestUncountableBaseline(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake valgrind is a shell script")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	fake, runs := filepath.Join(dir, "valgrind"), filepath.Join(dir, "runs")
	script := "#!/bin/sh\necho run >> " + runs + "\necho '==7== Process terminating with default action of signal 4 (SIGILL)'\nexit 132\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e := New(Config{Packages: []*mutate.Package{{ImportPath: "example.com/p", Dir: dir}},
		Measurement: Measurement{Counting: &Counting{Sampler: instr.Sampler{Valgrind: fake}}}}, "", nil)
	e.SetBaseline(map[string]map[string]string{"opt": {"example.com/p": filepath.Join(dir, "p.test")}})
	b := Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial"}
	runCount := func() int { got, _ := os.ReadFile(runs); return strings.Count(string(got), "run") }
	var first int
	for job := range 2 {
		ms := &measurement{e: e, j: &Job{Level: "opt"}, order: []Benchmark{b}, its: map[Benchmark]BenchIters{b: {N: 100}},
			names: map[Benchmark]string{b: "BenchmarkSerial"}, lr: &results.LevelResult{Iterations: map[string]int{}}}
		if err := ms.chooseMetrics(context.Background(), operators.SpinLoop); err != nil {
			t.Fatalf("job %d: chooseMetrics: %v", job, err)
		}
		if ms.counted[b] || ms.verdictMetric.Metric != score.SecPerOp {
			t.Errorf("job %d: counted %v, metric %q; want wall time", job, ms.counted[b], ms.verdictMetric.Metric)
		}
		if job == 0 {
			first = runCount()
		}
	}
	want := "BenchmarkSerial at opt is measured on wall time: its baseline cannot be counted under valgrind (baseline benchmark BenchmarkSerial of example.com/p: counting instructions of ^BenchmarkSerial$: valgrind stopped it: Process terminating with default action of signal 4 (SIGILL) ("
	if len(e.Warnings) != 1 || !strings.HasPrefix(e.Warnings[0], want) {
		t.Errorf("warnings %q, want one starting %q", e.Warnings, want)
	}
	// The iteration search's first pair of runs (the longer one may be
	// stopped before it starts), in the first job only.
	if n := runCount(); first < 1 || first > 2 || n != first {
		t.Errorf("valgrind ran %d times in the first job and %d in all, want 1 or 2, then none", first, n)
	}
}

// TestCountedOnly: a job runs beside others only when every benchmark it
// may be measured on is counted and its counts are found already: the
// time mode's and the count's iteration counts and the baseline's first
// counted sample.
func TestCountedOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	serial := Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial"}
	parallel := Benchmark{Pkg: "example.com/p", Name: "BenchmarkParallel"}
	pkgs := []*mutate.Package{{ImportPath: "example.com/p", Dir: dir}}
	ready := func(counting bool) *Engine {
		cfg := Config{Packages: pkgs}
		if counting {
			cfg.Counting = &Counting{}
		}
		e := New(cfg, "", nil)
		e.count.iters, e.count.base = map[string]int{}, map[string][]instr.Sample{}
		for _, b := range []Benchmark{serial, parallel} {
			key := itersKey("opt", b)
			e.itc[key] = BenchIters{N: 100}
			e.count.iters[key] = 1000
			e.count.base[key] = []instr.Sample{{PerOp: 5}}
		}
		return e
	}
	job := func(op *mutate.Operator, bs ...Benchmark) *Job {
		return &Job{Mutant: mutate.Mutant{Operator: op.Name, Op: op}, Level: "opt", Benches: bs}
	}
	e := ready(true)
	for _, tc := range []struct {
		j    *Job
		want bool
	}{
		{job(operators.SpinLoop, serial), true},
		{job(operators.Sleep, serial), false},                    // wall time
		{job(operators.LockContention, serial, parallel), false}, // contention on a concurrent benchmark: wall time
		{job(operators.SpinLoop), false},                         // no benchmark
	} {
		if got := e.CountedOnly(tc.j); got != tc.want {
			t.Errorf("CountedOnly(%s on %v) = %v, want %v", tc.j.Mutant.Operator, tc.j.Benches, got, tc.want)
		}
	}
	if ready(false).CountedOnly(job(operators.SpinLoop, serial)) {
		t.Error("CountedOnly without -measure instructions = true")
	}
	e = ready(true)
	e.count.base = nil // no baseline sample yet: the first job takes it alone
	if e.CountedOnly(job(operators.SpinLoop, serial)) {
		t.Error("CountedOnly before the baseline's first counted sample = true")
	}
	e = ready(true)
	delete(e.itc, itersKey("opt", serial)) // the time mode's count is not found yet
	if e.CountedOnly(job(operators.SpinLoop, serial)) {
		t.Error("CountedOnly before the time mode's iteration count = true")
	}
}

// TestBaselineCounts: the cached baseline counts of a level, by benchmark,
// in the order taken; nil for a level with none.
func TestBaselineCounts(t *testing.T) {
	e := New(Config{}, "", nil)
	a := Benchmark{Pkg: "example.com/p", Name: "BenchmarkA", CPU: 0}
	b := Benchmark{Pkg: "example.com/p", Name: "BenchmarkB/x=1", CPU: 4}
	e.count.base = map[string][]instr.Sample{
		itersKey("opt", a):   {{PerOp: 3}, {PerOp: 2}},
		itersKey("opt", b):   {{PerOp: 7}},
		itersKey("noopt", a): {{PerOp: 9}},
		itersKey("opt", Benchmark{Pkg: "example.com/p", Name: "BenchmarkNone"}): {},
	}
	want := map[Benchmark][]float64{a: {3, 2}, b: {7}}
	if got := e.BaselineCounts("opt"); !reflect.DeepEqual(got, want) {
		t.Errorf("BaselineCounts(opt) = %v, want %v", got, want)
	}
	if got := e.BaselineCounts("other"); got != nil {
		t.Errorf("BaselineCounts(other) = %v, want nil", got)
	}
}

// TestPrepareCounts: PrepareCounts takes a counted job's counts set-up
// (the count's iteration count and the baseline's first counted sample),
// after which CountedOnly holds and the job may run beside others; it
// runs nothing for a job on wall time or whose time-mode count is not
// known yet (that job is measured alone).
func TestPrepareCounts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake valgrind is a shell script")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
		t.Fatal(err)
	}
	fake, runs := fakeCounter(t, dir, "0")
	serial := Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial"}
	e := New(Config{Packages: []*mutate.Package{{ImportPath: "example.com/p", Dir: dir}},
		Measurement: Measurement{Counting: &Counting{Sampler: instr.Sampler{Valgrind: fake}}}}, "", nil)
	e.SetBaseline(map[string]map[string]string{"opt": {"example.com/p": filepath.Join(dir, "p.test")}})
	runCount := func() int { got, _ := os.ReadFile(runs); return len(strings.Fields(string(got))) }
	job := func(op *mutate.Operator) *Job {
		return &Job{Mutant: mutate.Mutant{Operator: op.Name, Op: op}, Level: "opt", Benches: []Benchmark{serial}}
	}
	ctx := context.Background()

	// The time mode's count is not known: nothing runs, the job stays alone.
	if err := e.PrepareCounts(ctx, job(operators.SpinLoop)); err != nil || runCount() != 0 || e.CountedOnly(job(operators.SpinLoop)) {
		t.Fatalf("without the time-mode count: err %v, %d valgrind runs, CountedOnly %v; want nil, 0, false", err, runCount(), e.CountedOnly(job(operators.SpinLoop)))
	}
	e.itc[itersKey("opt", serial)] = BenchIters{N: 100}
	if e.CountedOnly(job(operators.SpinLoop)) {
		t.Fatal("CountedOnly before PrepareCounts = true")
	}
	// A job on wall time: nothing to count.
	if err := e.PrepareCounts(ctx, job(operators.Sleep)); err != nil || runCount() != 0 {
		t.Fatalf("sleep: err %v, %d valgrind runs; want nil, 0", err, runCount())
	}
	if err := e.PrepareCounts(ctx, job(operators.SpinLoop)); err != nil {
		t.Fatal(err)
	}
	key := itersKey("opt", serial)
	// The stability check's two samples at N are the baseline's first.
	if n, ok := e.count.itersOf(key); !ok || n != instr.ItersFor(50000, instr.DefaultBudget) || len(e.count.baseOf(key)) != 2 || e.count.baseOf(key)[1].PerOp != 50000 {
		t.Errorf("after PrepareCounts: N %d (%v), baseline samples %+v; want N %d and two samples of 50000 instructions/op", n, ok, e.count.baseOf(key), instr.ItersFor(50000, instr.DefaultBudget))
	}
	if !e.CountedOnly(job(operators.SpinLoop)) {
		t.Error("CountedOnly after PrepareCounts = false")
	}
	// Taken once: a second job's preparation runs nothing.
	before := runCount()
	if err := e.PrepareCounts(ctx, job(operators.AllocChurn)); err != nil || runCount() != before {
		t.Errorf("second PrepareCounts: err %v, %d more valgrind runs; want none", err, runCount()-before)
	}
}

// fakeCounter writes a valgrind standing in for cachegrind into dir: a
// run at n iterations of BenchmarkSerial counts 1000 + 50000 n
// instructions plus extra (a shell arithmetic expression of n; "0" for
// none), and appends n to the returned runs file.
func fakeCounter(t *testing.T, dir, extra string) (fake, runs string) {
	t.Helper()
	fake, runs = filepath.Join(dir, "valgrind"), filepath.Join(dir, "runs")
	script := `#!/bin/sh
out=""; n=""
for a in "$@"; do
  case "$a" in
  --cachegrind-out-file=*) out="${a#--cachegrind-out-file=}" ;;
  -test.benchtime=*x) n="${a#-test.benchtime=}"; n="${n%x}" ;;
  esac
done
echo "$n" >> ` + runs + `
printf 'BenchmarkSerial \t %s\t 1 ns/op\nPASS\n' "$n"
printf 'events: Ir\nsummary: %s\n' "$((1000 + 50000 * n + ` + extra + `))" > "$out"
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return fake, runs
}

// TestCountItersWithoutClock: the counted iteration count comes from
// counts alone, not from the time mode's count (chosen for a sample's
// wall time, so larger in a burst of load: 3843 quiet, 9386 under load on
// a real module). A benchmark with a one-off cost of 2 M instructions in
// its loop (runs above 2 iterations) over 50000 a operation: from 2
// iterations the search finds N = 1945, where the count per operation
// is 1% above that at 2N; doubled once, 3890 is within 1% of 7780. Both
// time-mode counts give N = 3890 and the same baseline samples, and no
// count runs at either time-mode count.
func TestCountItersWithoutClock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake valgrind is a shell script")
	}
	serial := Benchmark{Pkg: "example.com/p", Name: "BenchmarkSerial"}
	key := itersKey("opt", serial)
	var perOps [][]float64
	for _, timeN := range []int{3843, 9386} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(concurrentTestFile), 0o644); err != nil {
			t.Fatal(err)
		}
		fake, runs := fakeCounter(t, dir, "(n > 2) * 2000000")
		e := New(Config{Packages: []*mutate.Package{{ImportPath: "example.com/p", Dir: dir}},
			Measurement: Measurement{Counting: &Counting{Sampler: instr.Sampler{Valgrind: fake}}}}, "", nil)
		e.SetBaseline(map[string]map[string]string{"opt": {"example.com/p": filepath.Join(dir, "p.test")}})
		e.itc[key] = BenchIters{N: timeN}
		if err := e.PrepareCounts(context.Background(), &Job{Mutant: mutate.Mutant{Operator: "spin-loop", Op: operators.SpinLoop}, Level: "opt", Benches: []Benchmark{serial}}); err != nil {
			t.Fatal(err)
		}
		if n, _ := e.count.itersOf(key); n != 3890 {
			t.Errorf("time-mode count %d: counted N = %d, want 3890", timeN, n)
		}
		var vals []float64
		for _, smp := range e.count.baseOf(key) {
			vals = append(vals, smp.PerOp)
		}
		perOps = append(perOps, vals)
		got, _ := os.ReadFile(runs)
		for _, f := range strings.Fields(string(got)) {
			if f == strconv.Itoa(timeN+instr.MinIters) {
				t.Errorf("time-mode count %d: a count ran at %s iterations, the time mode's count", timeN, f)
			}
		}
	}
	if !reflect.DeepEqual(perOps[0], perOps[1]) || len(perOps[0]) != 2 {
		t.Errorf("baseline samples %v and %v, want the same two", perOps[0], perOps[1])
	}
}

// TestVaryingCountIsNoisy: a count that varies between processes (a
// set-encoding benchmark making its own random IDs in each process moved
// by ±7%) is a noisy metric: a mutant measured on it is held to wall
// time's minimum effect, not the counts' 1.005 (which rests on counts that
// agree to about 0.1%), and its metric reason says why; a
// near-deterministic count keeps 1.005. The spread is the baseline's
// first two samples'.
func TestVaryingCountIsNoisy(t *testing.T) {
	b := Benchmark{Pkg: "example.com/p", Name: "BenchmarkSet"}
	for _, tc := range []struct {
		second    float64
		minEffect float64
		why       string
	}{
		{50040, 1.005, "work: an instruction count sees it"},
		{53500, 1.01, "work: an instruction count sees it; a count that varies between processes (BenchmarkSet x1.0700 between the baseline's first two samples) is a noisy metric, held to the minimum effect 1.01 of wall time"},
	} {
		e := New(Config{Measurement: Measurement{Rule: score.Rule{MinEffect: 1.01}, Counting: &Counting{MinEffect: instr.MinEffect}}}, "", nil)
		key := itersKey("opt", b)
		e.count.iters = map[string]int{key: 2000}
		e.count.base = map[string][]instr.Sample{key: {{PerOp: 50000}, {PerOp: tc.second}}}
		ms := &measurement{e: e, j: &Job{Level: "opt"}, order: []Benchmark{b}, names: map[Benchmark]string{b: b.Name},
			rule: e.cfg.Rule, lr: &results.LevelResult{Iterations: map[string]int{}}}
		if err := ms.chooseMetrics(context.Background(), operators.SpinLoop); err != nil {
			t.Fatal(err)
		}
		if !ms.counted[b] || ms.rule.MinEffect != tc.minEffect || ms.verdictMetric.Why != tc.why {
			t.Errorf("baseline 50000 and %v: counted %v, minimum effect %v, why %q; want counted, %v, %q", tc.second, ms.counted[b], ms.rule.MinEffect, ms.verdictMetric.Why, tc.minEffect, tc.why)
		}
	}
}

// opName is op's name, "" for no operator (a calibration trial).
func opName(op *mutate.Operator) string {
	if op == nil {
		return ""
	}
	return op.Name
}
