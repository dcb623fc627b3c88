package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfmut/perfmut/internal/attrib"
	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Attribution modes (-attribute): which benchmarks a comparison explains
// by functions.
const (
	AttributeChanged   = "changed"   // those with a slower or faster metric (the default)
	attributeUndecided = "undecided" // those and those with an undecided metric
	attributeOff       = "off"
)

// DefaultAttributeRounds is the default number of profiled rounds.
const DefaultAttributeRounds = 6

// checkAttribute checks -attribute and -attribute-rounds.
func (c *Comparison) checkAttribute() error {
	switch c.Attribute {
	case "":
		c.Attribute = AttributeChanged
	case AttributeChanged, attributeUndecided, attributeOff:
	default:
		return inputerr.Errorf("-attribute %q: want changed, undecided or off", c.Attribute)
	}
	if c.AttributeRounds == 0 {
		c.AttributeRounds = DefaultAttributeRounds
	}
	if c.AttributeRounds < 1 {
		return inputerr.Errorf("-attribute-rounds %d: want 1 or more (6 or more for intervals)", c.AttributeRounds)
	}
	return nil
}

// explains reports whether the mode explains metric verdict v.
func (c *Comparison) explains(v score.ChangeVerdict) bool {
	switch c.Attribute {
	case attributeOff:
		return false
	case attributeUndecided:
		return v == score.Slower || v == score.Faster || v == score.Unsure
	}
	return v == score.Slower || v == score.Faster
}

// attributeAll profiles the benchmarks of rep whose metrics the mode
// explains, on both sides, and attributes their changes to functions
// (CompareBenchmark.Attribution); with -history, every measured benchmark
// is profiled, and its rounds' behaviour features are returned by
// benchmark (see behaviourKey). sel are the measured benchmarks.
func (c *Comparison) attributeAll(ctx context.Context, sides [2]*compareSide, sel []engine.Benchmark, d *changes.Diff, rep *results.Comparison) (map[string][2][]map[string]float64, error) {
	var todo []int
	for i, cb := range rep.Benchmarks {
		if cb.Status == results.Measured && (c.HistoryDir != "" || c.explained(cb)) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	changed, key := changedFuncs(sides, d), keyer(sides)
	if err := os.MkdirAll(filepath.Join(c.Out, profilesDir), 0o755); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(uint64(c.Seed), 0x70726f66)) // "prof"
	behaviours := map[string][2][]map[string]float64{}
	for _, i := range todo {
		cb := &rep.Benchmarks[i]
		b, ok := findBench(sel, cb)
		if !ok {
			continue
		}
		sides[0].w.Logf("perfmut: profiling %s on OLD and NEW, %d interleaved rounds", cb.Name, c.AttributeRounds)
		p, err := c.profile(ctx, sides, b, cb, rng)
		if err == nil && c.explained(*cb) {
			cb.Attribution, err = c.attribute(p, cb, changed, key)
		}
		if err == nil && c.HistoryDir != "" {
			behaviours[behaviourKey(cb.Package, cb.Name)], err = features(p, key)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			cb.Warnings = append(cb.Warnings, "profiles: "+err.Error())
		}
	}
	return behaviours, nil
}

// explained reports whether the mode explains a metric of cb.
func (c *Comparison) explained(cb results.CompareBenchmark) bool {
	return slices.ContainsFunc(cb.Metrics, func(m results.CompareMetric) bool { return c.explains(m.Verdict) })
}

// profileIters is how the profiled samples run: b.N, the measurement's
// iteration count (a benchmark whose cost per op grows with b.N, such as
// inserting into the middle of a collection of b.N elements, costs per op
// what it was measured at), and runs, the -test.count that makes a
// sample about ProfileTime of the slower side at its measured median
// (profileRuns). A side with censored samples (stopped at the cap: their
// time per op is a lower bound), and both sides when no time was
// measured (-measure instructions counts instructions), are timed again
// for it, in a run of about ProfileTime. slow is the time per op in
// seconds it assumes.
func (c *Comparison) profileIters(ctx context.Context, sides [2]*compareSide, b engine.Benchmark, cb *results.CompareBenchmark) (n, runs int, slow float64, err error) {
	slow, retime := measuredTime(cb.Metrics)
	for i, s := range sides {
		if !retime[i] {
			continue
		}
		vals, res, err := s.w.Engine.BenchOnce(ctx, s.w.Binary(b.Pkg), s.w.Package(b.Pkg).Dir, b, profileTime.String(), max(100*profileTime, time.Minute))
		if err != nil {
			return 0, 0, 0, fmt.Errorf("%s: timing the profiled samples: %w", s.name, err)
		}
		if vals == nil {
			return 0, 0, 0, fmt.Errorf("%s: timing the profiled samples: %s", s.name, engine.BenchFailure(res).Reason)
		}
		slow = max(slow, vals["sec/op"])
	}
	n, runs = profileRuns(cb.Iterations, slow)
	return n, runs, slow, nil
}

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
