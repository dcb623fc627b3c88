package detect

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfmut/perfmut/score"
	"golang.org/x/tools/cover"
)

// mapPackage maps package p's benchmarks: a calibration round of them
// all, coverage runs of each (Jobs at a time), then a profiled run of
// each, one at a time.
func (o *mapper) mapPackage(ctx context.Context, p Pkg, bin binaries) ([]BenchResult, error) {
	names, err := listBenchmarks(ctx, p.Dir, bin.Plain, o.Timeout)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	dir, err := os.MkdirTemp(o.work, "pkg-")
	if err != nil {
		return nil, err
	}
	nsPerOp, err := o.calibrate(ctx, p, bin.Plain, names)
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { _, ok := nsPerOp[n]; return !ok })
	results := make([]BenchResult, len(names))
	errs := make([]error, len(names))
	start := time.Now()
	o.parallel(len(names), func(i int) {
		results[i], errs[i] = o.coverBench(ctx, p, bin.Cover, names[i], coverIters(nsPerOp[names[i]]), filepath.Join(dir, fmt.Sprintf("cover%d", i)))
		results[i].Iterations = iterations(o.SampleTime, nsPerOp[names[i]])
	})
	since(&o.cost.Coverage, start)
	// The profiled runs run alone: side by side, benchmarks share the
	// machine's caches and memory bandwidth, and their noise grows.
	start = time.Now()
	for i := range names {
		if errs[i] == nil && ctx.Err() == nil {
			results[i], errs[i] = o.profileRun(ctx, p, bin.Plain, results[i], names[i], filepath.Join(dir, fmt.Sprintf("cpu%d.prof", i)))
		}
	}
	since(&o.cost.Profile, start)
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

// parallel calls f(0) to f(n-1), Jobs at a time (at least 1), and waits.
func (o *mapper) parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, o.Jobs))
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
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

// coverBench runs benchmark name at b.N = n and 2n with count-mode
// coverage: the functions and blocks it runs, and those that grow with
// b.N.
func (o *mapper) coverBench(ctx context.Context, p Pkg, cbin, name string, n int, prefix string) (BenchResult, error) {
	b := BenchResult{Name: p.ImportPath + "." + name}
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
	b.Ran, b.Grows = Growth(counts[0], counts[1])
	b.PerOp = PerOp(blocks[0], blocks[1], n)
	return b, nil
}

// benchArgs are the flags that run the benchmarks names (top-level) alone.
func benchArgs(names []string, extra ...string) []string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return append([]string{"-test.run", "^$", "-test.bench", "^(" + strings.Join(quoted, "|") + ")$"}, extra...)
}

// calibrationTime is the length of a benchmark's calibration run: a
// quarter of the sample time, at least 1ms; go test's own step-up to it
// runs the benchmark several times, once per sub-benchmark.
func calibrationTime(sample time.Duration) time.Duration {
	return max(sample/4, time.Millisecond)
}

// calibrate runs the benchmarks names of p once, for calibrationTime
// each, and returns their ns/op. When that run fails, each runs alone:
// those that fail have no result.
func (o *mapper) calibrate(ctx context.Context, p Pkg, bin string, names []string) (map[string]float64, error) {
	defer since(&o.cost.Calibrate, time.Now())
	out := map[string]float64{}
	groups := [][]string{names}
	for len(groups) > 0 {
		g := groups[0]
		groups = groups[1:]
		args := benchArgs(g, "-test.benchtime", calibrationTime(o.SampleTime).String())
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
			o.skip(p, g[0], err)
			continue
		}
		for n, xs := range parseNsPerOp(string(text), 1) {
			out[n] = xs[0]
		}
	}
	return out, nil
}

// profileRun runs benchmark b (name in p) alone, rounds() rounds of
// b.Iterations (about SampleTime at the calibrated ns/op) with a CPU
// profile, and fills in its noise, detectable ratio and shares. A run
// that got fewer than fewSamples timed samples (on a loaded machine a
// benchmark gets less CPU time than wall time) is followed by one more
// process, with up to maxRerun times the rounds, whose rounds and samples
// are added: the noise then spans two processes, as a campaign's does.
func (o *mapper) profileRun(ctx context.Context, p Pkg, bin string, b BenchResult, name, file string) (BenchResult, error) {
	c := Classify{IsBench: benchFrame(p.ImportPath, name), KeyOf: o.keyOf, SetUp: func(fn string) bool { return b.Ran[fn] && !b.Grows[fn] }}
	rounds := o.Rounds()
	for try := 0; ; try++ {
		noise, prof, err := o.profileOnce(ctx, p, bin, name, b.Iterations, rounds, file)
		if err != nil {
			return b, err
		}
		b.Noise = append(b.Noise, noise...)
		b.Shares.Add(c.Count(prof))
		more, again := rerun(rounds, b.Shares.Total)
		if try > 0 || !again {
			break
		}
		rounds = more
	}
	b.Detectable = score.MinDetectable(b.Noise, o.Budget, o.Alpha, o.Test)
	return b, nil
}

// profileOnce runs benchmark name, rounds rounds of n iterations, with a
// CPU profile written to file: its ns/op per round, and the profile.
func (o *mapper) profileOnce(ctx context.Context, p Pkg, bin, name string, n, rounds int, file string) ([]float64, *profile.Profile, error) {
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

// maxRerun caps the rounds of the one more profiled run, as a multiple of
// the first's.
const maxRerun = 2

// rerun says whether a first profiled run of rounds rounds that got total
// timed samples is followed by another, and with how many rounds: enough
// for the missing samples up to fewSamples at the first run's rate, at
// most maxRerun times as many.
func rerun(rounds int, total int64) (int, bool) {
	if total >= fewSamples {
		return rounds, false
	}
	scale := float64(maxRerun)
	if total > 0 {
		scale = math.Min(scale, float64(fewSamples-total)/float64(total))
	}
	return max(2, int(math.Ceil(float64(rounds)*scale))), true
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
