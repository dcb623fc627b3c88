package compare

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/attrib"
	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Attribution modes (-attribute): which benchmarks a comparison explains
// by functions.
const (
	AttributeChanged   = "changed"   // those with a slower or faster metric (the default)
	AttributeUndecided = "undecided" // those and those with an undecided metric
	AttributeOff       = "off"
)

// DefaultAttributeRounds is the default number of profiled rounds.
const DefaultAttributeRounds = 6

// ProfileTime is about how long a profiled sample of the slower side
// takes: at the CPU profiler's 100 Hz, about 20 samples a round.
const ProfileTime = 200 * time.Millisecond

// ProfilesDir is where a comparison keeps its pprof files, in its output
// directory.
const ProfilesDir = "profiles"

// memProfileRate is the profiled samples' runtime.MemProfileRate: about
// one allocation recorded per 16 KiB allocated.
const memProfileRate = 16384

// checkAttribute checks -attribute and -attribute-rounds.
func (c *Comparison) checkAttribute() error {
	switch c.Attribute {
	case "":
		c.Attribute = AttributeChanged
	case AttributeChanged, AttributeUndecided, AttributeOff:
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
	case AttributeOff:
		return false
	case AttributeUndecided:
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
	if err := os.MkdirAll(filepath.Join(c.Out, ProfilesDir), 0o755); err != nil {
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

// findBench is the measured benchmark of cb.
func findBench(sel []engine.Benchmark, cb *results.CompareBenchmark) (engine.Benchmark, bool) {
	for _, b := range sel {
		if b.Pkg == cb.Package && b.CPUName() == cb.Name {
			return b, true
		}
	}
	return engine.Benchmark{}, false
}

// keyer maps profile function names to the module's functions, in any
// package of either side (external test packages too).
func keyer(sides [2]*compareSide) attrib.Keyer {
	var pkgs []string
	for _, s := range sides {
		for p := range s.modPkgs {
			if !slices.Contains(pkgs, p) {
				pkgs = append(pkgs, p, p+"_test")
			}
		}
	}
	slices.SortFunc(pkgs, func(a, b string) int { return len(b) - len(a) }) // the longest match first
	return attrib.Keyer(detect.KeyOf(pkgs))
}

// changedFuncs maps the functions whose declarations hold a changed line
// (NEW's added or changed lines first, then OLD's deleted or changed
// ones) to where the change touched them.
func changedFuncs(sides [2]*compareSide, d *changes.Diff) map[string]string {
	out := map[string]string{}
	for _, i := range []int{1, 0} {
		s := sides[i]
		lines := s.built([2]map[string][]changes.Range{d.Old, d.New}[i])
		for _, f := range sortedKeys(lines) {
			if !strings.HasSuffix(f, ".go") {
				continue
			}
			src, err := os.ReadFile(filepath.Join(s.w.Dir(), filepath.FromSlash(f)))
			if err != nil {
				continue // removed on this side
			}
			if err := attrib.Changed(out, importPathOf(s.modPath, f), f, src, lines[f], map[int]string{0: "OLD "}[i]); err != nil {
				continue // not Go this toolchain parses: no function to name
			}
		}
	}
	return out
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
		vals, res, err := s.w.Engine.BenchOnce(ctx, s.w.Binary(b.Pkg), s.w.Package(b.Pkg).Dir, b, ProfileTime.String(), max(100*ProfileTime, time.Minute))
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

// maxRuns bounds the runs of one profiled sample.
const maxRuns = 1000

// profileRuns is b.N and the runs of a profiled sample of a benchmark
// measured at iters iterations (0: not at a fixed count) and slow
// seconds per op (0: unknown): iters, and as many runs as make about
// ProfileTime. When one run of iters would take longer than that (a
// side many times slower than the measurement's other, whose samples
// were censored), and without iters, about ProfileTime's iterations in
// one run.
func profileRuns(iters int, slow float64) (n, runs int) {
	if slow <= 0 {
		return max(iters, 1), 1
	}
	if iters <= 0 || float64(iters)*slow > ProfileTime.Seconds() {
		return max(1, int(math.Round(ProfileTime.Seconds()/slow))), 1
	}
	return iters, min(maxRuns, max(1, int(math.Round(ProfileTime.Seconds()/(float64(iters)*slow)))))
}

// measuredTime is the slower side's measured median time per op in
// seconds (0 if no time was measured) and which sides need timing again
// for the profiled samples: those with censored samples, both when no
// time was measured.
func measuredTime(ms []results.CompareMetric) (slow float64, retime [2]bool) {
	for _, m := range ms {
		if m.Metric == "sec/op" {
			return max(m.Old, m.New), [2]bool{len(m.OldCensored) > 0, len(m.NewCensored) > 0}
		}
	}
	return 0, [2]bool{true, true}
}

// profileName is the base name of a benchmark's kept pprof files.
func profileName(cb *results.CompareBenchmark) string {
	return engine.SafeName(cb.Package + "." + cb.Name)
}

// describe is the path of a kept profile relative to the output
// directory.
func describe(name, side, kind string) string {
	return filepath.ToSlash(filepath.Join(ProfilesDir, fmt.Sprintf("%s.%s.%s.pprof", name, side, kind)))
}
