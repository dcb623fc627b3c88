package detect

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// Options say what to map and at what cost.
type Options struct {
	Pkgs []*mutate.Package
	Tags []string
	// SampleTime is one noise sample's length (the campaign's
	// -sample-time); NoiseSamples the fewest rounds of the profiled run,
	// each a noise sample of every benchmark.
	SampleTime   time.Duration
	NoiseSamples int
	// ProfileTime is about how long the profiled rounds of each benchmark
	// take together: the run has max(NoiseSamples, ProfileTime /
	// SampleTime) rounds.
	ProfileTime time.Duration
	// Budget, Alpha and Test are the campaign's sample budget
	// (-max-samples), level and test: d = score.MinDetectable(noise,
	// Budget, Alpha, Test).
	Budget  int
	Alpha   float64
	Test    score.Test
	Timeout time.Duration // deadline of each benchmark process
	// Jobs is how many coverage runs run at once (0 = 1); the profiled
	// runs, whose noise gives d, run one at a time.
	Jobs int
	Log  io.Writer // progress, one line per benchmark; nil = none
}

// Rounds is the number of rounds of each benchmark's profiled run.
func (o Options) Rounds() int {
	n := o.NoiseSamples
	if o.SampleTime > 0 {
		n = max(n, int((o.ProfileTime+o.SampleTime-1)/o.SampleTime))
	}
	return max(n, 2)
}

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
	Build     time.Duration `json:"build_ns"`     // the test binaries, plain and with coverage
	Coverage  time.Duration `json:"coverage_ns"`  // the runs at two b.N
	Calibrate time.Duration `json:"calibrate_ns"` // the round that sets each benchmark's b.N
	Profile   time.Duration `json:"profile_ns"`   // the profiled runs, which give the noise samples too
}

// Total is the sum of the steps.
func (c Cost) Total() time.Duration { return c.Build + c.Coverage + c.Calibrate + c.Profile }

// since adds the time since start to *step.
func since(step *time.Duration, start time.Time) { *step += time.Since(start) }

// A mapper computes one map: the options, the index of the functions in
// scope, the scratch directory and the cost so far.
type mapper struct {
	Options
	ix      *funcIndex
	keyOf   func(string) string
	work    string
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

// Compute builds the packages' test binaries, runs each benchmark's
// coverage at two b.N and each package's benchmarks once with a CPU
// profile (their noise samples too), and computes the map.
func Compute(ctx context.Context, o Options) (*Map, error) {
	ix, err := newIndex(o.Pkgs)
	if err != nil {
		return nil, err
	}
	work, err := outdir.MakeTemp() // pid-tagged: a killed map's is removed by the next perfmut command
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	m := &mapper{Options: o, ix: ix, keyOf: KeyOf(importPaths(o.Pkgs)), work: work}
	bins, err := m.buildAll(ctx)
	if err != nil {
		return nil, err
	}
	var benches []BenchResult
	for _, p := range o.Pkgs {
		b, ok := bins[p.ImportPath]
		if !ok {
			continue // no test files
		}
		bs, err := m.mapPackage(ctx, p, b)
		if err != nil {
			return nil, err
		}
		benches = append(benches, bs...)
	}
	return &Map{Benchmarks: benches, Functions: Rows(ix.Funcs(), benches), Cost: m.cost, Skipped: m.skipped}, nil
}

// skip leaves benchmark name of p out of the map, as a campaign's
// baseline does with a benchmark that fails, panics or runs past its
// deadline.
func (o *mapper) skip(p *mutate.Package, name string, err error) {
	o.skipped = append(o.skipped, Skipped{Benchmark: p.ImportPath + "." + name, Reason: firstLine(err.Error())})
}

// logBench prints b's line of -v.
func (o *mapper) logBench(b BenchResult) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, "%s: d=%.4f, %d timed samples in %d rounds of b.N=%d\n", b.Name, b.Detectable, b.Shares.Total, len(b.Noise), b.Iterations)
	}
}
