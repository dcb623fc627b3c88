package runner

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/score"
)

// A measureJob is one mutant at one level, built, passing its tests and
// reached by benchmarks, waiting to be measured.
type measureJob struct {
	m       mutate.Mutant
	level   string
	benches []benchmark
	note    string            // benchmarks left out by -max-benchmarks
	mutBins map[string]string // package -> mutant test binary
	prep    time.Duration     // build and tests
	cleanup func()
}

// defaultMetric is the metric filter when Campaign.Metric is nil.
func defaultMetric(unit string) bool {
	return unit == "sec/op" || unit == "B/op" || unit == "allocs/op"
}

// measure runs the job's benchmarks, baseline and mutant alternately in
// rounds (order randomized per round, seeded by the campaign seed, the
// mutant and the level), one process per sample, until the Decider stops.
// The raw outputs go to benchfmt files in the output directory, so that
// benchstat base.txt mut.txt reproduces the comparison.
func (r *run) measure(ctx context.Context, j *measureJob) (*report.LevelResult, error) {
	h := fnv.New64a()
	h.Write([]byte(j.m.ID + "\x00" + j.level))
	rng := rand.New(rand.NewPCG(uint64(r.c.Seed), h.Sum64()))

	relDir := filepath.ToSlash(filepath.Join("samples", safeName(j.m.ID), j.level))
	dir := filepath.Join(r.c.Out, relDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	files := [2]string{relDir + "/base.txt", relDir + "/mut.txt"}
	var outs [2]*os.File
	for i, f := range files {
		fh, err := os.Create(filepath.Join(r.c.Out, f))
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		outs[i] = fh
	}

	metric := r.c.Metric
	if metric == nil {
		metric = defaultMetric
	}
	type key struct {
		bench  benchmark
		metric string
	}
	names := displayNames(j.benches)
	var order []key
	samples := map[key]*Sample{}
	maxRounds := r.c.MaxSamples
	if maxRounds <= 0 {
		maxRounds = 30
	}
	// The mutant's timeout per benchmark comes from the baseline's sample
	// time, known before the mutant's first sample. It is generous: a
	// benchmark whose b.N ramp-up misjudges a mutant (fast first
	// iterations, slow later ones) can take seconds per sample without
	// hanging, and is a slowdown to measure, not a timeout.
	mutTimeout := map[benchmark]time.Duration{}
	for _, b := range j.benches {
		el, err := r.baseSampleTime(ctx, j.level, b)
		if err != nil {
			return nil, err
		}
		mutTimeout[b] = max(100*el, time.Minute, r.c.Timeout)
	}
	lr := &report.LevelResult{}
	var v Verdict
	for round := 1; ; round++ {
		for _, b := range j.benches {
			bins := [2]string{r.baseBins[j.level][b.Pkg], j.mutBins[b.Pkg]}
			var vals [2]map[string]float64
			for _, side := range rng.Perm(2) {
				timeout := time.Duration(0)
				if side == 1 {
					timeout = mutTimeout[b]
				}
				out, res, err := r.benchOnce(ctx, bins[side], r.pkgs[b.Pkg].Dir, b, timeout)
				if err != nil {
					return nil, err
				}
				if !res.ok() || out == nil {
					if side == 0 {
						return nil, fmt.Errorf("baseline benchmark %s of %s failed while measuring %s: %s", b.Name, b.Pkg, j.m.ID, lastLines(res.Output, 3))
					}
					st := benchFailure(res)
					lr.Status, lr.Reason = st.Status, fmt.Sprintf("benchmark %s: %s", b.Name, st.Reason)
					lr.Benchmarks = []score.TestResult{}
					return lr, nil
				}
				outs[side].Write(res.Output)
				vals[side] = out
			}
			for _, unit := range sortedUnits(vals[0]) {
				bv := vals[0][unit]
				mv, ok := vals[1][unit]
				if !ok || !metric(unit) {
					continue
				}
				k := key{b, unit}
				s := samples[k]
				if s == nil {
					s = &Sample{Benchmark: names[b], Metric: unit}
					samples[k] = s
					order = append(order, k)
				}
				s.Baseline = append(s.Baseline, bv)
				s.Mutant = append(s.Mutant, mv)
			}
		}
		list := make([]Sample, len(order))
		for i, k := range order {
			list[i] = *samples[k]
		}
		v = r.c.Decide(list)
		if v.Decision != Continue || round >= maxRounds {
			break
		}
	}
	switch v.Decision {
	case Kill:
		lr.Status = score.Killed
	default:
		lr.Status = score.Survived
		if v.Decision == Continue {
			lr.Reason = fmt.Sprintf("undecided after %d samples (the -max-samples cap)", maxRounds)
		}
	}
	lr.Benchmarks = v.Tests
	if lr.Benchmarks == nil {
		lr.Benchmarks = []score.TestResult{}
	}
	if len(v.Warnings) > 0 && lr.Reason == "" {
		lr.Reason = strings.Join(v.Warnings, "; ")
	}
	if j.note != "" {
		lr.Reason = strings.TrimPrefix(lr.Reason+"; "+j.note, "; ")
	}
	for _, k := range order {
		s := samples[k]
		lr.Samples = append(lr.Samples, report.SampleSet{
			Benchmark: s.Benchmark, Metric: s.Metric,
			Baseline: s.Baseline, Mutant: s.Mutant, Files: files,
		})
	}
	return lr, nil
}

// displayNames names each benchmark for the report: its name, qualified
// by its package's import path (path.Name) only where two packages'
// benchmarks share a name.
func displayNames(bs []benchmark) map[benchmark]string {
	count := map[string]int{}
	for _, b := range bs {
		count[b.Name]++
	}
	out := map[benchmark]string{}
	for _, b := range bs {
		out[b] = b.Name
		if count[b.Name] > 1 {
			out[b] = b.Pkg + "." + b.Name
		}
	}
	return out
}

// sortedUnits returns the units of vals in report order: sec/op, B/op,
// allocs/op, then custom units by name.
func sortedUnits(vals map[string]float64) []string {
	rank := map[string]int{"sec/op": 0, "B/op": 1, "allocs/op": 2}
	units := make([]string, 0, len(vals))
	for u := range vals {
		units = append(units, u)
	}
	sort.Slice(units, func(i, j int) bool {
		ri, iok := rank[units[i]]
		rj, jok := rank[units[j]]
		if !iok {
			ri = 3
		}
		if !jok {
			rj = 3
		}
		if ri != rj {
			return ri < rj
		}
		return units[i] < units[j]
	})
	return units
}

// baseSampleTime is how long one baseline sample of b takes at level,
// measured once per campaign (a sample that is not kept).
func (r *run) baseSampleTime(ctx context.Context, level string, b benchmark) (time.Duration, error) {
	key := level + "\x00" + b.Pkg + "\x00" + b.Name
	if el, ok := r.sampleTime[key]; ok {
		return el, nil
	}
	vals, res, err := r.benchOnce(ctx, r.baseBins[level][b.Pkg], r.pkgs[b.Pkg].Dir, b, 0)
	if err != nil {
		return 0, err
	}
	if vals == nil {
		return 0, fmt.Errorf("baseline benchmark %s of %s failed: %s", b.Name, b.Pkg, lastLines(res.Output, 3))
	}
	r.sampleTime[key] = res.Elapsed
	return res.Elapsed, nil
}

// benchOnce runs benchmark b once in bin and returns its values by unit
// (tidied by benchfmt: sec/op, B/op, allocs/op, custom units); nil values
// if the run failed or printed no result for b.
func (r *run) benchOnce(ctx context.Context, bin, dir string, b benchmark, timeout time.Duration) (map[string]float64, procResult, error) {
	args := []string{"-test.run=^$", "-test.bench=" + b.pattern(), "-test.benchtime=" + r.c.Benchtime,
		"-test.count=1", "-test.benchmem", "-test.timeout=0"}
	r.logCmd(dir, bin, args...)
	res, err := runProc(ctx, dir, nil, timeout, bin, args...)
	if err != nil {
		return nil, res, fmt.Errorf("running %s: %w", bin, err)
	}
	if res.Canceled {
		return nil, res, ctx.Err()
	}
	if !res.ok() {
		return nil, res, nil
	}
	want := strings.TrimPrefix(b.Name, "Benchmark") + procsSuffix() // benchfmt drops the prefix
	rd := benchfmt.NewReader(bytes.NewReader(res.Output), bin)
	for rd.Scan() {
		br, ok := rd.Result().(*benchfmt.Result)
		if !ok || br.Name.String() != want {
			continue
		}
		vals := map[string]float64{}
		for _, v := range br.Values {
			vals[v.Unit] = v.Value
		}
		return vals, res, nil
	}
	return nil, res, nil
}

// benchFailure classifies a failed mutant benchmark run.
func benchFailure(res procResult) testOutcome {
	if res.TimedOut {
		return testOutcome{Status: score.Timeout, Reason: "still running after " + res.Elapsed.Round(time.Millisecond).String() + " (killed)"}
	}
	out := classifyTests(res)
	if out.Status == score.Crash && !strings.HasPrefix(out.Reason, "test process exited") {
		return out // a signal, a panic or a fatal runtime error
	}
	// A benchmark that reports failure (b.Fatal, b.Error) or prints no
	// result is a functional difference.
	return testOutcome{Status: score.FNE, Reason: "failed: " + lastLines(res.Output, 2)}
}
