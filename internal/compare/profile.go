package compare

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfmut/perfmut/internal/attrib"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// profiled is one benchmark's profiled rounds: each side's CPU and
// allocation profiles, round by round, and the iterations each round's
// profiles cover (b.N times the runs).
type profiled struct {
	ns       []int
	cpu, mem [2][]*profile.Profile
	seconds  float64
}

// maxIterScale bounds how much the profiled rounds' runs grow over the
// first round's.
const maxIterScale = 8

// profile profiles b (reported as cb) on both sides in
// c.AttributeRounds interleaved rounds, both samples of a round at one
// b.N and one number of runs (profileIters: the first round's about
// ProfileTime of the slower side); when a round's profiles hold less
// than half ProfileTime of CPU time (a loaded machine runs the process a
// fraction of the time), the next round runs more, up to maxIterScale
// times the first's runs.
func (c *Comparison) profile(ctx context.Context, sides [2]*compareSide, b engine.Benchmark, cb *results.CompareBenchmark, rng *rand.Rand) (*profiled, error) {
	started := time.Now()
	tmp, err := os.MkdirTemp(sides[0].w.Tmp, "prof-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	p := &profiled{}
	n, runs0, slow, err := c.profileIters(ctx, sides, b, cb)
	if err != nil {
		return nil, err
	}
	runs := runs0
	for r := range c.AttributeRounds {
		var cpuNs float64
		// A sample's deadline: 100 times its expected time, at least a minute.
		timeout := max(time.Minute, time.Duration(100*slow*float64(n*runs)*1e9))
		for _, side := range rng.Perm(2) {
			base := filepath.Join(tmp, fmt.Sprintf("%d-%d", r, side))
			if err := c.profileOnce(ctx, sides[side], b, n, runs, base, timeout); err != nil {
				return nil, err
			}
			ps, err := attrib.Read([]string{base + ".cpu", base + ".mem"})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", sides[side].name, err)
			}
			p.cpu[side], p.mem[side] = append(p.cpu[side], ps[0]), append(p.mem[side], ps[1])
			cpuNs += cpuTime(ps[0])
		}
		p.ns = append(p.ns, n*runs)
		runs = nextIters(runs, runs0, cpuNs/2)
	}
	p.seconds = time.Since(started).Seconds()
	return p, nil
}

// nextIters is the next round's runs after a round of n runs whose
// samples held cpuNs nanoseconds of CPU time on average, n0 the first
// round's (see profile).
func nextIters(n, n0 int, cpuNs float64) int {
	target := float64(ProfileTime.Nanoseconds())
	if cpuNs >= target/2 {
		return n
	}
	grow := target / max(cpuNs, target/maxIterScale)
	return min(int(math.Ceil(float64(n)*grow)), maxIterScale*n0)
}

// cpuTime is the CPU time a CPU profile sampled, in nanoseconds.
func cpuTime(p *profile.Profile) float64 {
	vi, err := attrib.ValueIndex(p, "cpu")
	if err != nil {
		return 0
	}
	t := 0.0
	for _, s := range p.Sample {
		t += float64(s.Value[vi])
	}
	return t
}

// attribute keeps p's merged profiles in c.Out and attributes each
// explained metric of cb's change to functions.
func (c *Comparison) attribute(p *profiled, cb *results.CompareBenchmark, changed map[string]string, key attrib.Keyer) (*results.Attribution, error) {
	a := &results.Attribution{Iterations: p.ns, Rounds: c.AttributeRounds, Seconds: p.seconds}
	name := profileName(cb)
	a.Profiles = results.AttribProfiles{OldCPU: describe(name, "old", "cpu"), NewCPU: describe(name, "new", "cpu"),
		OldMem: describe(name, "old", "mem"), NewMem: describe(name, "new", "mem")}
	for _, f := range []struct {
		path string
		ps   []*profile.Profile
	}{{a.Profiles.OldCPU, p.cpu[0]}, {a.Profiles.NewCPU, p.cpu[1]}, {a.Profiles.OldMem, p.mem[0]}, {a.Profiles.NewMem, p.mem[1]}} {
		if err := attrib.WriteMerged(filepath.Join(c.Out, filepath.FromSlash(f.path)), f.ps); err != nil {
			return nil, fmt.Errorf("keeping the profiles: %w", err)
		}
	}
	for _, m := range cb.Metrics {
		am, err := c.attributeMetric(m, p, changed, key)
		if err != nil {
			return nil, err
		}
		if am != nil {
			am.Summary = attrib.Summary(cb.Name, *am)
			a.Metrics = append(a.Metrics, *am)
		}
	}
	return a, nil
}

// attributeMetric attributes measured metric m from the rounds' profiles,
// nil for a metric the mode does not explain or no profile measures.
func (c *Comparison) attributeMetric(m results.CompareMetric, p *profiled, changed map[string]string, key attrib.Keyer) (*results.AttribMetric, error) {
	if !c.explains(m.Verdict) {
		return nil, nil
	}
	for _, pm := range attrib.Metrics {
		if pm.Metric != m.Metric {
			continue
		}
		ps := p.mem
		if pm.Type == "cpu" {
			ps = p.cpu
		}
		rounds, err := attrib.Rounds(ps[0], ps[1], pm.Type, key)
		if err != nil {
			return nil, err
		}
		for i := range rounds {
			rounds[i].N = p.ns[i]
		}
		dir := 0.0
		switch m.Verdict {
		case score.Slower:
			dir = 1
		case score.Faster:
			dir = -1
		}
		am := attrib.Rank(results.AttribMetric{Metric: m.Metric, Verdict: m.Verdict, Ratio: m.Ratio, Unit: pm.Unit},
			rounds, attrib.Options{Dir: dir, Changed: changed, InModule: func(k string) bool { return key(k) != "" }})
		return &am, nil
	}
	return nil, nil
}

// profileOnce runs one profiled sample of b on side s, runs runs of n
// iterations under timeout, writing base.cpu and base.mem.
func (c *Comparison) profileOnce(ctx context.Context, s *compareSide, b engine.Benchmark, n, runs int, base string, timeout time.Duration) error {
	args := []string{"-test.run=^$", "-test.bench=" + b.Pattern(), "-test.benchtime=" + strconv.Itoa(n) + "x",
		"-test.count=" + strconv.Itoa(runs), "-test.benchmem", "-test.timeout=0", "-test.cpuprofile=" + base + ".cpu",
		"-test.memprofile=" + base + ".mem", "-test.memprofilerate=" + strconv.Itoa(memProfileRate)}
	if b.CPU > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(b.CPU))
	}
	res, err := proc.Run(ctx, s.w.Package(b.Pkg).Dir, nil, timeout, s.w.Binary(b.Pkg), args...)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", s.name, err)
	case res.Canceled:
		return ctx.Err()
	case !res.OK():
		return fmt.Errorf("%s: the profiled sample failed: %s", s.name, engine.BenchFailure(res).Reason)
	}
	return nil
}
