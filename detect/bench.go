package detect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfmut/perfmut/score"
	"golang.org/x/tools/cover"
)

// coverJobs is how many coverage runs run at once.
const coverJobs = 2

// mapPackage maps package p's benchmarks: coverage runs of each (at
// most coverJobs at once), then one profiled run of them all.
func (o *mapper) mapPackage(ctx context.Context, p Pkg, bin binaries) ([]BenchResult, error) {
	names, err := listBenchmarks(ctx, p.Dir, bin.Plain, o.Timeout)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	dir, err := os.MkdirTemp(o.work, "pkg-")
	if err != nil {
		return nil, err
	}
	results := make([]BenchResult, len(names))
	errs := make([]error, len(names))
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, coverJobs)
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], errs[i] = o.coverBench(ctx, p, bin.Cover, name, filepath.Join(dir, fmt.Sprintf("cover%d", i)))
		}()
	}
	wg.Wait()
	since(&o.cost.Coverage, start)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var ok []BenchResult
	for i, name := range names {
		if errs[i] != nil {
			o.skip(p, name, errs[i])
			continue
		}
		ok = append(ok, results[i])
	}
	return o.profileAll(ctx, p, bin.Plain, ok, dir)
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

// coverBench runs benchmark name at two b.N with count-mode coverage: the
// functions and blocks it runs, and those that grow with b.N.
func (o *mapper) coverBench(ctx context.Context, p Pkg, cbin, name, prefix string) (BenchResult, error) {
	b := BenchResult{Name: p.ImportPath + "." + name}
	var counts [2]map[string]int64
	var blocks [2]map[string]int64
	for i, n := range []int{coverSmall, coverLarge} {
		file := fmt.Sprintf("%s-%d.out", prefix, n)
		args := benchArgs([]string{name}, "-test.benchtime", fmt.Sprintf("%dx", n), "-test.coverprofile", file)
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
	b.PerOp = PerOp(blocks[0], blocks[1], coverLarge-coverSmall)
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

// profileAll measures the benchmarks bs of p: one calibration round of
// them all at SampleTime gives each its iteration count N, then each runs
// alone, rounds() rounds of N iterations with a CPU profile: the rounds
// are its noise samples, the profile its shares. A benchmark that fails
// is left out.
func (o *mapper) profileAll(ctx context.Context, p Pkg, bin string, bs []BenchResult, dir string) ([]BenchResult, error) {
	if len(bs) == 0 {
		return nil, nil
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Name[len(p.ImportPath)+1:]
	}
	nsPerOp, err := o.calibrate(ctx, p, bin, names)
	if err != nil {
		return nil, err
	}
	var out []BenchResult
	for i, b := range bs {
		ns, ok := nsPerOp[names[i]]
		if !ok {
			o.skip(p, names[i], fmt.Errorf("the calibration round printed no ns/op result"))
			continue
		}
		b.Iterations = iterations(o.SampleTime, ns)
		b, err := o.profileRun(ctx, p, bin, b, names[i], filepath.Join(dir, fmt.Sprintf("cpu%d.prof", i)))
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			o.skip(p, names[i], err)
			continue
		}
		out = append(out, b)
	}
	return out, nil
}

// calibrate runs the benchmarks names of p once, SampleTime each, and
// returns their ns/op. When that run fails, each runs alone: those that
// fail have no result.
func (o *mapper) calibrate(ctx context.Context, p Pkg, bin string, names []string) (map[string]float64, error) {
	defer since(&o.cost.Calibrate, time.Now())
	out := map[string]float64{}
	groups := [][]string{names}
	for len(groups) > 0 {
		g := groups[0]
		groups = groups[1:]
		args := benchArgs(g, "-test.benchtime", o.SampleTime.String())
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
// b.Iterations with a CPU profile, and fills in its noise, detectable
// ratio and shares.
func (o *mapper) profileRun(ctx context.Context, p Pkg, bin string, b BenchResult, name, file string) (BenchResult, error) {
	defer since(&o.cost.Profile, time.Now())
	rounds := o.rounds()
	args := benchArgs([]string{name}, "-test.benchtime", fmt.Sprintf("%dx", b.Iterations), "-test.count", fmt.Sprint(rounds), "-test.cpuprofile", file)
	env := append(os.Environ(), fmt.Sprintf("%s=%d", hzEnv, profileHz))
	text, err := runCmd(ctx, p.Dir, env, o.Timeout, bin, args...)
	if err != nil {
		return b, err
	}
	prof, err := readProfile(file)
	if err != nil {
		return b, err
	}
	if b.Noise = parseNsPerOp(string(text), rounds)[name]; len(b.Noise) < 2 {
		return b, fmt.Errorf("benchmark %s printed fewer than 2 ns/op results:\n%s", name, tail(string(text), 2000))
	}
	b.Detectable = score.MinDetectable(b.Noise, o.Budget, o.Alpha, o.Test)
	c := Classify{IsBench: benchFrame(p.ImportPath, name), KeyOf: o.keyOf, SetUp: func(fn string) bool { return b.Ran[fn] && !b.Grows[fn] }}
	b.Shares = c.Count(prof)
	o.logBench(b)
	return b, nil
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
