package detect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
	"golang.org/x/tools/cover"
)

// mapPackage maps package p's benchmarks: a calibration round of them
// all in each binary, then a profiled run of each, one at a time, with
// the coverage runs beside them (coverAndProfile).
func (o *mapper) mapPackage(ctx context.Context, p *mutate.Package, bin binaries) ([]BenchResult, error) {
	names, err := listBenchmarks(ctx, p.Dir, bin.Plain, o.Timeout)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	dir, err := os.MkdirTemp(o.work, "pkg-")
	if err != nil {
		return nil, err
	}
	nsPerOp, coverNs, err := o.calibrateBoth(ctx, p, bin, names)
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { _, ok := nsPerOp[n]; return !ok })
	results := make([]BenchResult, len(names))
	for i, n := range names {
		// The coverage runs' b.N is for about 50ms of the
		// instrumented binary, as a campaign's: atomic counters make a
		// tight loop several times slower (25 times on the demo's
		// text.Lower).
		results[i] = BenchResult{Name: p.ImportPath + "." + n, Iterations: iterations(o.SampleTime, nsPerOp[n]),
			CoverIterations: coverIters(firstPositive(coverNs[n], nsPerOp[n])), coverNsPerOp: coverNs[n]}
	}
	errs := o.coverAndProfile(ctx, p, bin, dir, names, results)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var out []BenchResult
	for i, name := range names {
		if errs[i] != nil {
			o.skip(p, name, errs[i])
			continue
		}
		o.logBench(results[i])
		out = append(out, results[i])
	}
	return out, nil
}

// calibrateBoth calibrates the benchmarks names in the plain binary (their
// ns/op sets the profiled rounds' b.N; those that fail are left out) and
// in the coverage binary (it sets the coverage runs'), both at once when
// Jobs allows two processes.
func (o *mapper) calibrateBoth(ctx context.Context, p *mutate.Package, bin binaries, names []string) (plain, cover map[string]float64, err error) {
	defer since(&o.cost.Calibrate, time.Now())
	var coverErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if o.Jobs <= 1 {
			return
		}
		cover, coverErr = o.calibrate(ctx, p, bin.Cover, names, calibrationTime(o.SampleTime), false)
	}()
	plain, err = o.calibrate(ctx, p, bin.Plain, names, calibrationTime(o.SampleTime), true)
	<-done
	if err == nil && coverErr == nil && o.Jobs <= 1 {
		cover, coverErr = o.calibrate(ctx, p, bin.Cover, names, calibrationTime(o.SampleTime), false)
	}
	return plain, cover, errors.Join(err, coverErr)
}

// coverIters is the smaller b.N of a benchmark's two coverage runs (the
// larger is twice it), as a campaign's baseline coverage chooses it: about
// 50ms at the calibrated ns/op, between 2 and 100000. Loops that start
// only once the benchmark's state has grown (a cache that evicts once
// full) run at that count, not at a handful of iterations.
func coverIters(nsPerOp float64) int {
	const target = 50e6
	if !(nsPerOp > 0) {
		return 100
	}
	return int(min(max(target/nsPerOp, 2), 100000))
}

// listBenchmarks lists the test binary's top-level benchmarks.
func listBenchmarks(ctx context.Context, dir, bin string, timeout time.Duration) ([]string, error) {
	out, err := runCmd(ctx, dir, nil, timeout, bin, "-test.list", "^Benchmark")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			names = append(names, strings.TrimSpace(l))
		}
	}
	return names, nil
}

// coverBench runs benchmark name at b.N = n and 2n with atomic-mode
// coverage: the functions and blocks it runs, and those that grow with
// b.N.
func (o *mapper) coverBench(ctx context.Context, p *mutate.Package, cbin, name string, n int, prefix string) (BenchResult, error) {
	b := BenchResult{Name: p.ImportPath + "." + name, CoverIterations: n}
	var counts, blocks [2]map[string]int64
	for i, iters := range []int{n, 2 * n} {
		file := fmt.Sprintf("%s-%d.out", prefix, i)
		args := benchArgs([]string{name}, "-test.benchtime", fmt.Sprintf("%dx", iters), "-test.coverprofile", file)
		if _, err := runCmd(ctx, p.Dir, nil, o.Timeout, cbin, args...); err != nil {
			return b, err
		}
		profs, err := cover.ParseProfiles(file)
		if err != nil {
			return b, err
		}
		counts[i], blocks[i] = o.ix.CoverCounts(profs), o.ix.BlockCounts(profs)
	}
	b.Ran, b.Grows = growth(counts[0], counts[1])
	b.PerOp = perOp(blocks[0], blocks[1], n)
	return b, nil
}

// benchArgs are the flags that run the benchmarks names (top-level) alone.
func benchArgs(names []string, extra ...string) []string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return append([]string{"-test.run", "^$", "-test.bench", "^(" + strings.Join(quoted, "|") + ")$", "-test.paniconexit0"}, extra...)
}

// calibrationTime is the length of a benchmark's calibration run: a
// quarter of the sample time, at least 1ms; go test's own step-up to it
// runs the benchmark several times, once per sub-benchmark.
func calibrationTime(sample time.Duration) time.Duration {
	return max(sample/4, time.Millisecond)
}

// firstPositive is the first of xs above 0, else 0.
func firstPositive(xs ...float64) float64 {
	for _, x := range xs {
		if x > 0 {
			return x
		}
	}
	return 0
}

// calibrate runs the benchmarks names of p in bin once, for benchtime
// each, and returns their ns/op. When that run fails, each runs alone:
// those that fail have no result, and are left out of the map when skip
// is set.
func (o *mapper) calibrate(ctx context.Context, p *mutate.Package, bin string, names []string, benchtime time.Duration, skip bool) (map[string]float64, error) {
	out := map[string]float64{}
	groups := [][]string{names}
	for len(groups) > 0 {
		g := groups[0]
		groups = groups[1:]
		args := benchArgs(g, "-test.benchtime", benchtime.String())
		text, err := runCmd(ctx, p.Dir, nil, o.Timeout*time.Duration(len(g)), bin, args...)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil && len(g) > 1 {
			for _, n := range g {
				groups = append(groups, []string{n})
			}
			continue
		}
		if err != nil {
			if skip {
				o.skip(p, g[0], err)
			}
			continue
		}
		for n, xs := range parseNsPerOp(string(text), 1) {
			out[n] = xs[0]
		}
	}
	return out, nil
}

// profileRun runs benchmark b (name in p, its coverage known) alone,
// Rounds() rounds of b.Iterations (about SampleTime at the calibrated
// ns/op) with a CPU profile, in two processes of half the rounds each
// (splitRounds), and fills in its noise, detectable ratio and shares: the
// noise samples span two processes, as a campaign's do, and the profile
// samples of both add up. When the first process's rounds were far
// shorter than SampleTime (tooShort: the calibration round misjudged the
// benchmark), their own ns/op sets b.N and the process starts over, up to
// maxRecalibrations times (the ns/op of rounds of a handful of iterations
// is mostly the timer's: b.N grows at least fourfold a step).
func (o *mapper) profileRun(ctx context.Context, p *mutate.Package, bin string, b BenchResult, name, file string) (BenchResult, error) {
	c := classify{IsBench: benchFrame(p.ImportPath, name), KeyOf: o.keyOf, SetUp: func(fn string) bool { return b.Ran[fn] && !b.Grows[fn] }}
	b.Shares = Shares{Funcs: map[string]Count{}}
	for i, rounds := range splitRounds(o.Rounds()) {
		noise, prof, err := o.profileOnce(ctx, p, bin, name, b.Iterations, rounds, file)
		for k := 0; i == 0 && err == nil && k < maxRecalibrations && tooShort(noise, b.Iterations, o.SampleTime); k++ {
			b.Iterations = iterations(o.SampleTime, median(noise))
			noise, prof, err = o.profileOnce(ctx, p, bin, name, b.Iterations, rounds, file)
		}
		if err != nil {
			return b, err
		}
		b.Noise = append(b.Noise, noise...)
		b.Shares.Add(c.Count(prof))
	}
	b.Detectable = score.MinDetectable(b.Noise, o.Budget, o.Alpha, o.Test)
	return b, nil
}

// splitRounds splits a profiled run's rounds into its processes: two of
// half the rounds each (the first takes the odd one), or one when a half
// would have fewer than 2 (a process's rounds must give a spread).
func splitRounds(rounds int) []int {
	if rounds < 4 {
		return []int{rounds}
	}
	return []int{rounds - rounds/2, rounds / 2}
}

// maxRecalibrations is how many times a profiled run may start over with
// a b.N from its own rounds.
const maxRecalibrations = 4

// tooShort reports whether rounds of n iterations at the noise's median
// ns/op took less than a quarter of sample: the calibration round, one
// run of a few milliseconds, was slowed by a slow first iteration or by
// the process being descheduled, and set b.N far too small.
func tooShort(noise []float64, n int, sample time.Duration) bool {
	return sample > 0 && len(noise) > 0 && median(noise)*float64(n) < float64(sample.Nanoseconds())/4
}

// profileOnce runs benchmark name, rounds rounds of n iterations, with a
// CPU profile written to file: its ns/op per round, and the profile.
func (o *mapper) profileOnce(ctx context.Context, p *mutate.Package, bin, name string, n, rounds int, file string) ([]float64, *profile.Profile, error) {
	args := benchArgs([]string{name}, "-test.benchtime", fmt.Sprintf("%dx", n), "-test.count", fmt.Sprint(rounds), "-test.cpuprofile", file)
	env := append(os.Environ(), fmt.Sprintf("%s=%d", hzEnv, profileHz))
	text, err := runCmd(ctx, p.Dir, env, o.Timeout, bin, args...)
	if err != nil {
		return nil, nil, err
	}
	noise := parseNsPerOp(string(text), rounds)[name]
	if len(noise) < 2 {
		return nil, nil, fmt.Errorf("benchmark %s printed fewer than 2 ns/op results:\n%s", name, tail(string(text), 2000))
	}
	prof, err := readProfile(file)
	return noise, prof, err
}

// readProfile parses the CPU profile in file.
func readProfile(file string) (*profile.Profile, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return profile.Parse(f)
}

// benchFrame reports the profile names of benchmark name of package
// path (its test package's too) and of its closures, which run
// b.RunParallel's bodies on goroutines of their own.
func benchFrame(path, name string) func(string) bool {
	return func(s string) bool {
		for _, full := range []string{path + "." + name, path + "_test." + name} {
			if s == full || strings.HasPrefix(s, full+".func") {
				return true
			}
		}
		return false
	}
}
