package runner

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfmut/perfmut/internal/english"
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
	phases  phaseTimes
	cleanup func()
}

// defaultMetric is the metric filter when Campaign.Metric is nil.
func defaultMetric(unit string) bool {
	return unit == "sec/op" || unit == "B/op" || unit == "allocs/op"
}

// measure runs the job's benchmarks, baseline and mutant alternately in
// rounds (order randomized per round, seeded by the campaign seed, the
// mutant and the level), one process per sample, until the Rule decides.
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
	samples := map[key]*score.Sample{}
	maxRounds := r.c.Rule.MaxSamples
	// Every benchmark runs a fixed number of iterations per sample, the
	// same on both sides (see iters). A mutant sample that runs past the
	// censoring cap is stopped and recorded as censored: slower than every
	// baseline sample. Without a cap (time-based samples, -censor 0) the
	// mutant's timeout is generous: a slowdown is to be measured, not a
	// timeout.
	its := map[benchmark]benchIters{}
	slowest := map[benchmark]time.Duration{}
	censored := map[key][]int{} // indices of censored mutant samples
	lr := &report.LevelResult{Iterations: map[string]int{}}
	for _, b := range j.benches {
		it, err := r.iters(ctx, j.level, b)
		if err != nil {
			return nil, err
		}
		its[b] = it
		if it.N > 0 {
			lr.Iterations[names[b]] = it.N
			if it.N < LowIterations {
				lr.Warnings = append(lr.Warnings, fmt.Sprintf("%s runs %s per sample (one takes about %s): its samples are dominated by cold first iterations",
					names[b], english.Plural(it.N, "iteration"), (it.Wall/time.Duration(it.N)).Round(time.Microsecond)))
			}
		}
	}
	var v score.Verdict
	for round := 1; ; round++ {
		for _, b := range j.benches {
			it := its[b]
			bins := [2]string{r.baseBins[j.level][b.Pkg], j.mutBins[b.Pkg]}
			var vals [2]map[string]float64
			cens := false
			for _, side := range rng.Perm(2) {
				timeout := time.Duration(0)
				cap := r.censorCap(it, slowest[b])
				if side == 1 {
					timeout = cap
					if cap == 0 {
						timeout = max(100*it.Wall, time.Minute, r.c.Timeout)
					}
				}
				out, res, err := r.benchOnce(ctx, bins[side], r.pkgs[b.Pkg].Dir, b, r.benchtimeArg(it), timeout)
				if err != nil {
					return nil, err
				}
				if side == 1 && cap > 0 && res.TimedOut {
					// Censored: with N iterations on both sides, running
					// past the cap orders this sample above every
					// baseline sample; only the time metric gets a value.
					perOp := res.Elapsed.Seconds() / float64(it.N)
					_, err := fmt.Fprintf(outs[1], "# censored: %s stopped after %s (cap %s = %g x slowest baseline sample + %s) at %dx: slower than every baseline sample; sec/op >= %g\n",
						b.Name, res.Elapsed.Round(time.Millisecond), cap.Round(time.Millisecond), r.c.CensorFactor, CensorSlack, it.N, perOp)
					if err != nil {
						return nil, fmt.Errorf("writing the samples of %s: %w", j.m.ID, err)
					}
					out = map[string]float64{"sec/op": perOp}
					cens = true
				} else if !res.ok() || out == nil {
					if side == 0 {
						return nil, fmt.Errorf("baseline benchmark %s of %s failed while measuring %s: %s", b.Name, b.Pkg, j.m.ID, lastLines(res.Output, 3))
					}
					st := benchFailure(res)
					lr.Status, lr.Reason = st.Status, fmt.Sprintf("benchmark %s: %s", b.Name, st.Reason)
					lr.Benchmarks = []score.TestResult{}
					return lr, nil
				} else if _, err := outs[side].Write(res.Output); err != nil {
					return nil, fmt.Errorf("writing the samples of %s: %w", j.m.ID, err)
				}
				if side == 0 {
					slowest[b] = max(slowest[b], res.Elapsed)
				}
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
					s = &score.Sample{Benchmark: names[b], Metric: unit}
					samples[k] = s
					order = append(order, k)
				}
				if cens {
					censored[k] = append(censored[k], len(s.Mutant))
				}
				s.Baseline = append(s.Baseline, bv)
				s.Mutant = append(s.Mutant, mv)
			}
		}
		var list []score.Sample
		for _, k := range order {
			list = append(list, censoredSample(*samples[k], censored[k]))
		}
		v = r.c.Rule.Decide(completeSamples(list, round))
		if v.Decision != score.Continue || round >= maxRounds {
			break
		}
	}
	switch v.Decision {
	case score.Kill:
		lr.Status = score.Killed
	default:
		lr.Status = score.Survived
		if v.Decision == score.Continue {
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
	if len(lr.Iterations) == 0 {
		lr.Iterations = nil
	}
	if j.note != "" {
		lr.Reason = strings.TrimPrefix(lr.Reason+"; "+j.note, "; ")
	}
	if lr.Status == score.Survived {
		if hint := r.survivorHint(j.m.Operator, j.benches, lr.Benchmarks); hint != "" {
			lr.Reason = strings.TrimPrefix(lr.Reason+"; "+hint, "; ")
		}
	}
	for _, k := range order {
		s := samples[k]
		lr.Samples = append(lr.Samples, report.SampleSet{
			Benchmark: s.Benchmark, Metric: s.Metric,
			Baseline: s.Baseline, Mutant: s.Mutant, Files: files,
			MutantCensored: censored[k],
		})
	}
	for _, fh := range outs {
		if err := fh.Close(); err != nil {
			return nil, fmt.Errorf("writing the samples of %s: %w", j.m.ID, err)
		}
	}
	return lr, nil
}

// displayNames names each benchmark for the report: its name (with -N
// when it runs at a -cpu value N > 1, as go test prints it), qualified by
// its package's import path (path.Name) only where two packages'
// benchmarks share a name.
func displayNames(bs []benchmark) map[benchmark]string {
	count := map[string]int{}
	for _, b := range bs {
		count[b.cpuName()]++
	}
	out := map[benchmark]string{}
	for _, b := range bs {
		out[b] = b.cpuName()
		if count[b.cpuName()] > 1 {
			out[b] = b.Pkg + "." + b.cpuName()
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

// benchOnce runs benchmark b once in bin at benchtime and returns its values by unit
// (tidied by benchfmt: sec/op, B/op, allocs/op, custom units); nil values
// if the run failed or printed no result for b.
func (r *run) benchOnce(ctx context.Context, bin, dir string, b benchmark, benchtime string, timeout time.Duration) (map[string]float64, procResult, error) {
	args := []string{"-test.run=^$", "-test.bench=" + b.pattern(), "-test.benchtime=" + benchtime,
		"-test.count=1", "-test.benchmem", "-test.timeout=0"}
	if b.CPU > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(b.CPU))
	}
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
	want := strings.TrimPrefix(b.Name, "Benchmark") + b.suffix() // benchfmt drops the prefix
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

// censoredSample returns s with its censored mutant values (at the indices
// given) raised above every baseline value if needed: a censored sample is
// only known to be slower than every baseline sample, and the rank tests
// need no more than that.
func censoredSample(s score.Sample, idx []int) score.Sample {
	if len(idx) == 0 {
		return s
	}
	top := math.Inf(-1)
	for _, v := range s.Baseline {
		top = max(top, v)
	}
	s.Mutant = slices.Clone(s.Mutant)
	for _, i := range idx {
		if s.Mutant[i] <= top {
			s.Mutant[i] = math.Nextafter(top, math.Inf(1))
		}
	}
	return s
}

// completeSamples keeps the samples that have a value in every one of the
// rounds so far. The early-stopping rule takes a look when the smallest
// sample count reaches a look's count; a metric that missed a round (a
// censored round has only the time; a custom metric may be reported only
// sometimes) would hold that count back and make the rule take the same
// look again, spending its alpha twice. Such a metric is left out of the
// decision from then on.
func completeSamples(ss []score.Sample, rounds int) []score.Sample {
	var out []score.Sample
	for _, s := range ss {
		if len(s.Baseline) == rounds && len(s.Mutant) == rounds {
			out = append(out, s)
		}
	}
	return out
}
