package compare

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfmut/perfmut/internal/attrib"
	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/results"
)

// profileTime is about how long a profiled sample of the slower side
// takes: at the CPU profiler's 100 Hz, about 20 samples a round.
const profileTime = 200 * time.Millisecond

// profilesDir is where a comparison keeps its pprof files, in its output
// directory.
const profilesDir = "profiles"

// memProfileRate is the profiled samples' runtime.MemProfileRate: about
// one allocation recorded per 16 KiB allocated.
const memProfileRate = 16384

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

// nextIters is the next round's runs after a round of n runs whose
// samples held cpuNs nanoseconds of CPU time on average, n0 the first
// round's (see profile).
func nextIters(n, n0 int, cpuNs float64) int {
	target := float64(profileTime.Nanoseconds())
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
	if iters <= 0 || float64(iters)*slow > profileTime.Seconds() {
		return max(1, int(math.Round(profileTime.Seconds()/slow))), 1
	}
	return iters, min(maxRuns, max(1, int(math.Round(profileTime.Seconds()/(float64(iters)*slow)))))
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
	return filepath.ToSlash(filepath.Join(profilesDir, fmt.Sprintf("%s.%s.%s.pprof", name, side, kind)))
}
