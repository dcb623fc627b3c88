package compare

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/instr"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// A compared is the measurement state of one benchmark of a comparison.
type compared struct {
	b       engine.Benchmark
	it      engine.BenchIters
	n       int                      // iterations of a counted sample (-measure instructions); 0: timed
	slowest [2]time.Duration         // slowest uncensored sample of each side
	vals    map[string]*[2][]float64 // metric -> OLD and NEW values
	cens    map[string]*[2][]int     // metric -> censored indices per side
	missing map[string][]int         // metric -> rounds without its value (score.Sample.Missing)
	units   []string                 // metrics in first-seen order
	rounds  int
	change  score.Change
	done    bool
	failed  string
}

// measureAll measures the selected benchmarks on both sides in interleaved
// rounds until each one's rule decides, and adds them to rep.
// why says why each benchmark (by package and name) was selected.
func (c *Comparison) measureAll(ctx context.Context, sides [2]*compareSide, sel []engine.Benchmark, why map[engine.Benchmark]string, rep *results.Comparison) error {
	rule := c.Rule.ForBenchmarks(len(sel), c.MinSamples)
	if err := rule.ValidateChange(); err != nil {
		return inputerr.Errorf("%s to compare share -alpha %g (%.3g each): %v", english.Plural(len(sel), "benchmark"), c.Rule.Alpha, rule.Alpha, err)
	}
	var files [2]*os.File
	var outs [2]io.Writer
	for i, name := range []string{CompareOldSamples, CompareNewSamples} {
		f, err := os.Create(filepath.Join(c.Out, name))
		if err != nil {
			return err
		}
		defer f.Close()
		files[i], outs[i] = f, f
	}
	old := sides[0].w
	metric := c.Metric
	if metric == nil {
		metric = engine.DefaultMetric
	}
	states, err := prepare(ctx, sides, sel)
	if err != nil {
		return err
	}
	old.Logf("perfmut: measuring %s on OLD and NEW, interleaved, up to %d samples each (%s each sample)",
		english.Plural(len(sel), "benchmark"), rule.MaxSamples, c.sampleDesc())
	rng := rand.New(rand.NewPCG(uint64(c.Seed), 0x636f6d70617265)) // "compare"
	for round := 1; round <= rule.MaxSamples; round++ {
		active := slices.DeleteFunc(slices.Clone(states), func(st *compared) bool { return st.done })
		if len(active) == 0 {
			break
		}
		for _, st := range active {
			if err := c.sampleRound(ctx, sides, st, rng, outs, metric); err != nil {
				return err
			}
			if st.failed != "" {
				st.done = true
				continue
			}
			st.change = c.ruleFor(rule, st).DecideChange(st.samples())
			if st.change.Decision != score.Continue {
				st.done = true
				old.Logf("perfmut: %s", st.summary())
			}
		}
	}
	for _, f := range files {
		if err := f.Close(); err != nil {
			return fmt.Errorf("writing the samples: %w", err)
		}
	}
	for _, st := range states {
		cb := st.result()
		cb.Why = why[engine.Benchmark{Pkg: st.b.Pkg, Name: st.b.Name}]
		rep.Benchmarks = append(rep.Benchmarks, cb)
	}
	slices.SortStableFunc(rep.Benchmarks, func(a, b results.CompareBenchmark) int {
		if a.Package != b.Package {
			return cmpString(a.Package, b.Package)
		}
		return cmpString(a.Name, b.Name)
	})
	return nil
}

// prepare chooses each selected benchmark's iteration count on OLD (its
// count under counting) and warms NEW's binary up with one unrecorded
// sample; a benchmark OLD cannot run is failed and done.
func prepare(ctx context.Context, sides [2]*compareSide, sel []engine.Benchmark) ([]*compared, error) {
	old := sides[0].w
	states := make([]*compared, len(sel))
	for i, b := range sel {
		st := &compared{b: b, vals: map[string]*[2][]float64{}, cens: map[string]*[2][]int{}, missing: map[string][]int{}}
		states[i] = st
		it, err := old.Iters(ctx, b)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			st.failed, st.done = "OLD: "+err.Error(), true
			continue
		}
		st.it = it
		if old.Counted(b) {
			if st.n, err = old.CountIters(ctx, b); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				st.failed, st.done = "OLD: "+err.Error(), true
			}
			continue
		}
		// iters warmed OLD's binary up (page cache, first run); NEW gets
		// one unrecorded sample too, so that neither side starts cold.
		nb := sides[1].w.Binary(b.Pkg)
		if _, _, err := old.BenchOnce(ctx, nb, sides[1].w.Package(b.Pkg).Dir, b, it, max(100*it.Wall, time.Minute)); err != nil {
			return nil, err
		}
	}
	return states, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sampleDesc describes one sample's length.
func (c *Comparison) sampleDesc() string {
	if c.Benchtime != "" {
		return "-benchtime " + c.Benchtime
	}
	return "about " + c.SampleTime.String()
}

// sampleRound takes one sample of st's benchmark on each side, in random
// order. A side's sample that runs past the censoring cap (CensorFactor
// times the other side's slowest sample, plus CensorSlack) is stopped and
// recorded as censored: slower than every sample of the other side.
func (c *Comparison) sampleRound(ctx context.Context, sides [2]*compareSide, st *compared, rng *rand.Rand, outs [2]io.Writer, metric func(string) bool) error {
	if st.n > 0 {
		return c.countRound(ctx, sides, st, outs)
	}
	old := sides[0].w
	b, it := st.b, st.it
	var vals [2]map[string]float64
	var censored [2]bool
	var round [2]bytes.Buffer // written once both samples are taken
	for _, side := range rng.Perm(2) {
		s := sides[side]
		limit := old.CensorCap(it, st.slowest[1-side])
		timeout := limit
		if limit == 0 {
			timeout = max(100*it.Wall, time.Minute)
		}
		out, res, err := old.BenchOnce(ctx, s.w.Binary(b.Pkg), s.w.Package(b.Pkg).Dir, b, it, timeout)
		if err != nil {
			return err
		}
		switch {
		case limit > 0 && res.TimedOut:
			perOp := res.Elapsed.Seconds() / float64(it.N)
			fmt.Fprintf(&round[side], "# censored: %s stopped after %s (cap %s = %g x slowest %s sample + %s) at %dx; sec/op >= %g\n",
				b.Name, res.Elapsed.Round(time.Millisecond), limit.Round(time.Millisecond), c.CensorFactor, sides[1-side].name, it.SlackOrDefault(), it.N, perOp)
			out, censored[side] = map[string]float64{"sec/op": perOp}, true
		case !res.OK() || out == nil:
			st.failed = fmt.Sprintf("%s: %s", s.name, engine.BenchFailure(res).Reason)
			return nil
		default:
			round[side].Write(res.Output)
			st.slowest[side] = max(st.slowest[side], res.Elapsed)
		}
		vals[side] = out
	}
	if err := writeRound(outs, &round); err != nil {
		return err
	}
	st.record(vals, censored, metric)
	return nil
}

// record adds a round to st: the values of each side by unit, and which
// side's sample was censored. A metric without a value on both sides in
// this round (a censored sample has only sec/op) records the round as
// missing.
func (st *compared) record(vals [2]map[string]float64, censored [2]bool, metric func(string) bool) {
	round := st.rounds
	st.rounds++
	units := engine.RoundUnits(vals, metric)
	for _, u := range engine.MissedUnits(st.units, units) {
		st.missing[u] = append(st.missing[u], round)
	}
	for _, unit := range units {
		v := st.vals[unit]
		if v == nil {
			v = &[2][]float64{}
			st.vals[unit], st.cens[unit], st.missing[unit] = v, &[2][]int{}, engine.MissingBefore(round)
			st.units = append(st.units, unit)
		}
		for side, x := range []float64{vals[0][unit], vals[1][unit]} {
			if censored[side] {
				st.cens[unit][side] = append(st.cens[unit][side], len(v[side]))
			}
			v[side] = append(v[side], x)
		}
	}
}

// samples returns st's samples for the rule, OLD as Baseline and NEW as
// Mutant, censored values raised above every value of the other side.
func (st *compared) samples() []score.Sample {
	var out []score.Sample
	for _, u := range st.units {
		v, cs := st.vals[u], st.cens[u]
		s := engine.CensoredSample(score.Sample{Benchmark: st.b.CPUName(), Metric: u, Baseline: v[0], Mutant: v[1], Missing: st.missing[u]}, cs[1])
		rev := engine.CensoredSample(score.Sample{Baseline: s.Mutant, Mutant: s.Baseline}, cs[0])
		s.Baseline = rev.Mutant
		out = append(out, s)
	}
	return out
}

// summary is the log line of a decided benchmark.
func (st *compared) summary() string {
	line := st.b.CPUName() + ":"
	for _, m := range st.change.Metrics {
		line += fmt.Sprintf(" %s %s %s;", m.Metric, m.Verdict, score.RatioX(m.Ratio))
	}
	return fmt.Sprintf("%s n=%d", line, st.rounds)
}

// result is st as a report entry. A metric that missed rounds (a censored
// sample has only sec/op) is decided on the others, with a warning.
func (st *compared) result() results.CompareBenchmark {
	cb := results.CompareBenchmark{Package: st.b.Pkg, Name: st.b.CPUName(), CPU: st.b.CPU, Status: results.Measured, Iterations: st.it.N}
	if st.n > 0 {
		cb.Iterations = st.n
	}
	if st.failed != "" {
		cb.Status, cb.Reason = results.Failed, st.failed
		return cb
	}
	cb.Warnings = st.change.Warnings
	byUnit := map[string]score.MetricChange{}
	for _, m := range st.change.Metrics {
		byUnit[m.Metric] = m
	}
	for _, u := range st.units {
		v, cs := st.vals[u], st.cens[u]
		cm := results.CompareMetric{Metric: u, Verdict: score.Unsure,
			Old: score.Median(v[0]), New: score.Median(v[1]),
			OldValues: v[0], NewValues: v[1], OldCensored: cs[0], NewCensored: cs[1]}
		m, ok := byUnit[u]
		if !ok { // no verdict of the rule (an invalid rule): the values only
			cb.Metrics = append(cb.Metrics, cm)
			continue
		}
		if m.Verdict != "" {
			cm.Verdict = m.Verdict
		}
		t := m.Test()
		cm.Ratio, cm.RatioLo, cm.RatioHi = m.Ratio, m.RatioLo, m.RatioHi
		cm.P, cm.PAdj, cm.Threshold = t.P, t.PAdj, t.Threshold
		cm.Warnings = append(cm.Warnings, t.Warnings...)
		cb.Metrics = append(cb.Metrics, cm)
	}
	return cb
}

// countRound takes one counted sample of st's benchmark on each side
// (-measure instructions), both at once when the machine has two cores: a
// count does not move with the load. A failed sample fails the benchmark
// on its side.
func (c *Comparison) countRound(ctx context.Context, sides [2]*compareSide, st *compared, outs [2]io.Writer) error {
	var smp [2]instr.Sample
	var errs [2]error
	count := func(side int) {
		s := sides[side]
		smp[side], errs[side] = s.w.CountSample(ctx, s.w.Binary(st.b.Pkg), s.w.Package(st.b.Pkg).Dir, st.b, st.n)
	}
	if runtime.NumCPU() >= 2 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			count(1)
		}()
		count(0)
		<-done
	} else {
		count(0)
		count(1)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return st.recordCounts([2]string{sides[0].name, sides[1].name}, smp, errs, outs)
}

// recordCounts records a counted round, the samples smp of the sides
// named names, or the errors that failed them: both samples are written
// to outs and recorded in st, or, when a side failed, neither is and st
// fails.
func (st *compared) recordCounts(names [2]string, smp [2]instr.Sample, errs [2]error, outs [2]io.Writer) error {
	for side, err := range errs {
		if err != nil {
			st.failed = fmt.Sprintf("%s: %v", names[side], err)
			return nil
		}
	}
	var round [2]bytes.Buffer
	var vals [2]map[string]float64
	for side := range smp {
		instr.WriteResult(&round[side], st.b.Name, smp[side]) // a bytes.Buffer takes every write
		vals[side] = smp[side].Values()
	}
	if err := writeRound(outs, &round); err != nil {
		return err
	}
	st.record(vals, [2]bool{}, func(string) bool { return true })
	return nil
}

// writeRound writes a round's samples, one per side, into the sides'
// samples files, once both were taken: a round is in both files or in
// neither.
func writeRound(outs [2]io.Writer, round *[2]bytes.Buffer) error {
	for side, w := range outs {
		if _, err := w.Write(round[side].Bytes()); err != nil {
			return fmt.Errorf("writing the samples: %w", err)
		}
	}
	return nil
}

// ruleFor is the rule deciding st: on counts, the counts' minimum effect
// (engine.Counting.MinEffect).
func (c *Comparison) ruleFor(rule score.Rule, st *compared) score.Rule {
	if st.n > 0 && c.Counting != nil && c.Counting.MinEffect > 0 {
		rule.MinEffect = c.Counting.MinEffect
	}
	return rule
}
