package detect

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfmut/perfmut/score"
	"golang.org/x/tools/cover"
)

// Options say what to map and at what cost.
type Options struct {
	Pkgs []Pkg
	Tags []string
	// SampleTime is one noise sample's length (the campaign's
	// -sample-time); NoiseSamples how many are taken per benchmark.
	SampleTime   time.Duration
	NoiseSamples int
	// ProfileTime is about how long the profiled run of each benchmark
	// takes (at 500 samples per second, see profileHz).
	ProfileTime time.Duration
	// Budget, Alpha and Test are the campaign's sample budget
	// (-max-samples), level and test: d = score.MinDetectable(noise,
	// Budget, Alpha, Test).
	Budget  int
	Alpha   float64
	Test    score.Test
	Timeout time.Duration // deadline of each benchmark process
	Log     io.Writer     // progress, one line per benchmark; nil = none
}

// Cover runs' iteration counts: set-up runs as often at both, the timed
// loop more often at the larger.
const coverSmall, coverLarge = 2, 5

// A Map is the detectability map of the packages in scope.
type Map struct {
	Benchmarks []BenchResult `json:"benchmarks"`
	Functions  []Row         `json:"functions"`
	Cost       Cost          `json:"cost"`
	// Skipped are the benchmarks that failed on the baseline: the
	// functions only they run are "never".
	Skipped []Skipped `json:"skipped,omitempty"`
}

// Cost is the wall time the map took, by step.
type Cost struct {
	Build    time.Duration `json:"build_ns"`    // the test binaries, plain and with coverage
	Coverage time.Duration `json:"coverage_ns"` // the runs at two b.N
	Noise    time.Duration `json:"noise_ns"`    // the noise samples
	Profile  time.Duration `json:"profile_ns"`  // the profiled runs
}

// Total is the sum of the steps.
func (c Cost) Total() time.Duration { return c.Build + c.Coverage + c.Noise + c.Profile }

// since adds the time since start to *step.
func since(step *time.Duration, start time.Time) { *step += time.Since(start) }

// A mapper computes one map: the options and the cost so far.
type mapper struct {
	Options
	cost    Cost
	skipped []Skipped
}

// Skipped is a benchmark left out of the map, and why.
type Skipped struct {
	Benchmark string `json:"benchmark"`
	Reason    string `json:"reason"`
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Compute builds each package's test binaries, runs its benchmarks
// (coverage at two b.N, noise samples, a CPU-profiled run) and computes
// the map.
func Compute(ctx context.Context, o Options) (*Map, error) {
	ix, err := NewIndex(o.Pkgs)
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "perfmut-sensitivity-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	var benches []BenchResult
	m := &mapper{Options: o}
	for i, p := range o.Pkgs {
		bs, err := m.mapPackage(ctx, ix, p, filepath.Join(work, fmt.Sprint(i)))
		if err != nil {
			return nil, err
		}
		benches = append(benches, bs...)
	}
	return &Map{Benchmarks: benches, Functions: Rows(ix.Funcs(), benches), Cost: m.cost, Skipped: m.skipped}, nil
}

// mapPackage runs package p's benchmarks; dir is its scratch directory.
func (o *mapper) mapPackage(ctx context.Context, ix *Index, p Pkg, dir string) ([]BenchResult, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	bin, cbin := filepath.Join(dir, "pkg.test"), filepath.Join(dir, "cover.test")
	overlay, err := hzOverlay(p, dir)
	if err != nil {
		return nil, err
	}
	var extra []string
	if overlay != "" {
		extra = []string{"-overlay", overlay}
	}
	if err := o.build(ctx, p, bin, extra...); err != nil {
		return nil, err
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, nil // no test files
	}
	names, err := listBenchmarks(ctx, p.Dir, bin, o.Timeout)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	if err := o.build(ctx, p, cbin, "-cover", "-covermode=count", "-coverpkg="+strings.Join(importPaths(o.Pkgs), ",")); err != nil {
		return nil, err
	}
	keyOf := KeyOf(importPaths(o.Pkgs))
	var out []BenchResult
	for _, name := range names {
		b, err := o.bench(ctx, ix, keyOf, p, bin, cbin, name, dir)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			// As a campaign's baseline does: a benchmark that fails,
			// panics or runs past its deadline is left out.
			o.skipped = append(o.skipped, Skipped{Benchmark: p.ImportPath + "." + name, Reason: firstLine(err.Error())})
			continue
		}
		if o.Log != nil {
			fmt.Fprintf(o.Log, "%s: d=%.4f, %d timed samples at b.N=%d\n", b.Name, b.Detectable, b.Shares.Total, b.Iterations)
		}
		out = append(out, b)
	}
	return out, nil
}

// build compiles p's test binary to out with extra go test flags.
func (o *mapper) build(ctx context.Context, p Pkg, out string, extra ...string) error {
	defer since(&o.cost.Build, time.Now())
	args := []string{"test", "-c", "-o", out}
	if len(o.Tags) > 0 {
		args = append(args, "-tags", strings.Join(o.Tags, ","))
	}
	args = append(append(args, extra...), ".")
	_, err := runCmd(ctx, p.Dir, nil, 0, "go", args...)
	return err
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

// bench measures one benchmark: which functions grow with b.N, its
// noise, and its profile's shares.
func (o *mapper) bench(ctx context.Context, ix *Index, keyOf func(string) string, p Pkg, bin, cbin, name, dir string) (BenchResult, error) {
	b := BenchResult{Name: p.ImportPath + "." + name}
	small, err := o.coverCounts(ctx, ix, p, cbin, name, coverSmall, dir)
	if err != nil {
		return b, err
	}
	large, err := o.coverCounts(ctx, ix, p, cbin, name, coverLarge, dir)
	if err != nil {
		return b, err
	}
	b.Ran, b.Grows = Growth(small, large)
	if b.Noise, err = o.noise(ctx, p, bin, name); err != nil {
		return b, err
	}
	b.Detectable = score.MinDetectable(b.Noise, o.Budget, o.Alpha, o.Test)
	setUp := func(fn string) bool { return b.Ran[fn] && !b.Grows[fn] }
	isBench := benchFrame(p.ImportPath, name)
	c := Classify{IsBench: isBench, KeyOf: keyOf, SetUp: setUp}
	b.Iterations = iterations(o.ProfileTime, median(b.Noise))
	n := b.Iterations
	for try := 0; ; try++ {
		prof, err := o.profile(ctx, p, bin, name, n, dir)
		if err != nil {
			return b, err
		}
		b.Shares.Add(c.Count(prof))
		more, ok := rerun(n, b.Shares.Total)
		if try > 0 || !ok {
			return b, nil
		}
		n = more
		b.Iterations += n
	}
}

// targetSamples is the number of timed samples the profiled runs aim at;
// maxRerun caps how much longer than the first the one more run that a
// first run with fewer than 3/4 of them gets (on a loaded machine, a
// benchmark gets less CPU time than wall time) is.
const targetSamples, maxRerun = 200, 4

// rerun says whether a first profiled run of n iterations that got total
// timed samples is followed by another, whose samples are added, and with
// how many iterations: enough for the missing samples at the first run's
// rate.
func rerun(n int, total int64) (int, bool) {
	if total >= targetSamples*3/4 {
		return n, false
	}
	scale := float64(maxRerun)
	if total > 0 {
		scale = math.Min(scale, float64(targetSamples-total)/float64(total))
	}
	return int(math.Ceil(float64(n) * scale)), true
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

// benchArgs are the flags that run benchmark name alone.
func benchArgs(name string, extra ...string) []string {
	return append([]string{"-test.run", "^$", "-test.bench", "^" + name + "$"}, extra...)
}

// coverCounts runs the benchmark at b.N = n with count-mode coverage.
func (o *mapper) coverCounts(ctx context.Context, ix *Index, p Pkg, cbin, name string, n int, dir string) (map[string]int64, error) {
	defer since(&o.cost.Coverage, time.Now())
	file := filepath.Join(dir, fmt.Sprintf("cover%d.out", n))
	args := benchArgs(name, "-test.benchtime", fmt.Sprintf("%dx", n), "-test.coverprofile", file)
	if _, err := runCmd(ctx, p.Dir, nil, o.Timeout, cbin, args...); err != nil {
		return nil, err
	}
	profs, err := cover.ParseProfiles(file)
	if err != nil {
		return nil, err
	}
	return ix.CoverCounts(profs), nil
}

// noise takes the benchmark's noise samples (ns/op, sub-benchmarks
// summed).
func (o *mapper) noise(ctx context.Context, p Pkg, bin, name string) ([]float64, error) {
	defer since(&o.cost.Noise, time.Now())
	args := benchArgs(name, "-test.benchtime", o.SampleTime.String(), "-test.count", fmt.Sprint(o.NoiseSamples))
	out, err := runCmd(ctx, p.Dir, nil, o.Timeout, bin, args...)
	if err != nil {
		return nil, err
	}
	xs := parseNsPerOp(string(out), o.NoiseSamples)
	if len(xs) == 0 {
		return nil, fmt.Errorf("benchmark %s printed no ns/op result:\n%s", name, tail(string(out), 2000))
	}
	return xs, nil
}

// profile runs the benchmark n iterations with a CPU profile.
func (o *mapper) profile(ctx context.Context, p Pkg, bin, name string, n int, dir string) (*profile.Profile, error) {
	defer since(&o.cost.Profile, time.Now())
	file := filepath.Join(dir, "cpu.prof")
	args := benchArgs(name, "-test.benchtime", fmt.Sprintf("%dx", n), "-test.cpuprofile", file)
	env := append(os.Environ(), fmt.Sprintf("%s=%d", hzEnv, profileHz))
	if _, err := runCmd(ctx, p.Dir, env, o.Timeout, bin, args...); err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return profile.Parse(f)
}
