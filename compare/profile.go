package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfmut/perfmut/engine"
	"github.com/perfmut/perfmut/internal/attrib"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// attribute profiles b (reported as cb) on both sides in
// c.AttributeRounds interleaved rounds at one iteration count, keeps the
// merged profiles in c.Out and attributes each explained metric's change.
func (c *Comparison) attribute(ctx context.Context, sides [2]*compareSide, b engine.Benchmark, cb *results.CompareBenchmark, changed map[string]string, key attrib.Keyer, rng *rand.Rand) (*results.Attribution, error) {
	started := time.Now()
	tmp, err := os.MkdirTemp(sides[0].w.Tmp, "prof-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	n, err := c.profileIters(ctx, sides, b, cb)
	if err != nil {
		return nil, err
	}
	a := &results.Attribution{Iterations: n, Rounds: c.AttributeRounds}
	var cpu, mem [2][]*profile.Profile
	for r := range c.AttributeRounds {
		for _, side := range rng.Perm(2) {
			base := filepath.Join(tmp, fmt.Sprintf("%d-%d", r, side))
			if err := c.profileOnce(ctx, sides[side], b, a.Iterations, base); err != nil {
				return nil, err
			}
			ps, err := attrib.Read([]string{base + ".cpu", base + ".mem"})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", sides[side].name, err)
			}
			cpu[side], mem[side] = append(cpu[side], ps[0]), append(mem[side], ps[1])
		}
	}
	name := profileName(cb)
	a.Profiles = results.AttribProfiles{OldCPU: describe(name, "old", "cpu"), NewCPU: describe(name, "new", "cpu"),
		OldMem: describe(name, "old", "mem"), NewMem: describe(name, "new", "mem")}
	for _, f := range []struct {
		path string
		ps   []*profile.Profile
	}{{a.Profiles.OldCPU, cpu[0]}, {a.Profiles.NewCPU, cpu[1]}, {a.Profiles.OldMem, mem[0]}, {a.Profiles.NewMem, mem[1]}} {
		if err := attrib.WriteMerged(filepath.Join(c.Out, filepath.FromSlash(f.path)), f.ps); err != nil {
			return nil, fmt.Errorf("keeping the profiles: %w", err)
		}
	}
	for _, m := range cb.Metrics {
		am, err := c.attributeMetric(m, cpu, mem, a.Iterations, changed, key)
		if err != nil {
			return nil, err
		}
		if am != nil {
			am.Summary = attrib.Summary(cb.Name, *am)
			a.Metrics = append(a.Metrics, *am)
		}
	}
	a.Seconds = time.Since(started).Seconds()
	return a, nil
}

// attributeMetric attributes measured metric m from the rounds' profiles,
// nil for a metric the mode does not explain or no profile measures.
func (c *Comparison) attributeMetric(m results.CompareMetric, cpu, mem [2][]*profile.Profile, n int, changed map[string]string, key attrib.Keyer) (*results.AttribMetric, error) {
	if !c.explains(m.Verdict) {
		return nil, nil
	}
	for _, pm := range attrib.Metrics {
		if pm.Metric != m.Metric {
			continue
		}
		ps := mem
		if pm.Type == "cpu" {
			ps = cpu
		}
		rounds, err := attrib.Rounds(ps[0], ps[1], pm.Type, key)
		if err != nil {
			return nil, err
		}
		dir := 0.0
		switch m.Verdict {
		case score.Slower:
			dir = 1
		case score.Faster:
			dir = -1
		}
		am := attrib.Rank(results.AttribMetric{Metric: m.Metric, Verdict: m.Verdict, Ratio: m.Ratio, Unit: pm.Unit},
			rounds, attrib.Options{N: n, Dir: dir, Changed: changed})
		return &am, nil
	}
	return nil, nil
}

// profileOnce runs one profiled sample of b at n iterations on side s,
// writing base.cpu and base.mem.
func (c *Comparison) profileOnce(ctx context.Context, s *compareSide, b engine.Benchmark, n int, base string) error {
	args := []string{"-test.run=^$", "-test.bench=" + b.Pattern(), "-test.benchtime=" + strconv.Itoa(n) + "x",
		"-test.count=1", "-test.benchmem", "-test.timeout=0", "-test.cpuprofile=" + base + ".cpu",
		"-test.memprofile=" + base + ".mem", "-test.memprofilerate=" + strconv.Itoa(memProfileRate)}
	if b.CPU > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(b.CPU))
	}
	timeout := max(100*ProfileTime, time.Minute)
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
