package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/english"
)

// Plan is what a campaign is expected to cost before any mutant is built
// (perfmut run -plan): counts and times per level from the baseline's
// build, test, coverage and benchmark times.
type Plan struct {
	Module   string               `json:"module"`
	Mutants  int                  `json:"mutants"`
	Levels   []string             `json:"levels"`
	Jobs     int                  `json:"jobs"`
	Baseline BaselineTimes        `json:"baseline"` // measured
	ByLevel  map[string]PlanLevel `json:"by_level"`
	// WallSeconds is the expected wall time: the baseline, the builds and
	// tests divided among Jobs workers, and the measurement (alone).
	WallSeconds float64 `json:"wall_seconds"`
	// Within and Shards: the -shard count whose shards each fit Within
	// (every shard repeats the baseline).
	Within string `json:"within,omitempty"`
	Shards int    `json:"shards,omitempty"`
	// Quick, if set, says the plan is a quick one: estimated from the
	// source and a few timed builds, without the baseline steps; Baseline
	// and ByLevel are then estimates too (the likely case).
	Quick *QuickPlan `json:"quick,omitempty"`
}

// QuickPlan is what a quick plan adds: the bounds of its estimate and
// what it was made from.
type QuickPlan struct {
	// Low and High bound ByLevel: High assumes every mutant of a package
	// that a benchmark's package imports is reached by all of them and
	// by all the tests, Low that each is judged by one benchmark and one
	// build and runs no test.
	Low  map[string]PlanLevel `json:"low"`
	High map[string]PlanLevel `json:"high"`
	// WallLow and WallHigh bound WallSeconds; ShardsHigh is the -shard
	// count for Within in the high case.
	WallLow    float64 `json:"wall_low_seconds"`
	WallHigh   float64 `json:"wall_high_seconds"`
	ShardsHigh int     `json:"shards_high,omitempty"`
	// NoFit says the baseline steps alone are estimated to take longer
	// than Within: no shard fits, and Shards is the count whose shards'
	// mutants each take about Within.
	NoFit      bool `json:"no_fit,omitempty"`
	Benchmarks int  `json:"benchmarks"` // found in the source
	Tests      int  `json:"tests"`      // found in the source (tests, examples, fuzz targets)
	// Timed are the packages whose test binaries were built (and tests
	// run) to time them.
	Timed   []TimedPackage `json:"timed"`
	Seconds float64        `json:"seconds"` // what making the plan took
}

// TimedPackage is one package a quick plan timed.
type TimedPackage struct {
	Package string `json:"package"`
	// FirstBuildSeconds is the first build of its test binary (with the
	// dependencies not yet in the build cache); MutantBuildSeconds a
	// mutant's build after it; TestSeconds a run of its tests (0: not
	// run), StartSeconds a run of its test binary with no test.
	FirstBuildSeconds  float64 `json:"first_build_seconds"`
	MutantBuildSeconds float64 `json:"mutant_build_seconds"`
	TestSeconds        float64 `json:"test_seconds"`
	TestsTimedOut      bool    `json:"tests_timed_out,omitempty"`
	// BuildStopped: the timing budget ran out during a build, whose time
	// so far is a lower bound (and the mutant build's, if it was the
	// first build).
	BuildStopped bool    `json:"build_stopped,omitempty"`
	StartSeconds float64 `json:"start_seconds"`
}

// PlanLevel is one level's part of a Plan.
type PlanLevel struct {
	NotBuilt int `json:"not_built"` // no benchmark reaches them and no test is to run (none reaches them, or the operator is inert)
	Built    int `json:"built"`
	Tested   int `json:"tested"`   // built and running tests
	Measured int `json:"measured"` // built and measured (inferred kills left out)
	Inferred int `json:"inferred"` // expected to be killed by inference
	// Expected times summed over the mutants (seconds).
	BuildSeconds   float64 `json:"build_seconds"`
	TestSeconds    float64 `json:"test_seconds"`
	MeasureSeconds float64 `json:"measure_seconds"`
	MeasureRounds  float64 `json:"measure_rounds"` // expected rounds per measured mutant, on average
}

// WritePlan prints a plan as a table.
func WritePlan(w io.Writer, p *Plan) error {
	var b strings.Builder
	d := func(s float64) string { return time.Duration(s * float64(time.Second)).Round(time.Second).String() }
	q := p.Quick
	if q == nil {
		fmt.Fprintf(&b, "plan for %s: %s at %s\n", p.Module, english.Plural(p.Mutants, "mutant"), strings.Join(p.Levels, " and "))
		fmt.Fprintf(&b, "baseline (measured): %s build and test, %s benchmark coverage, %s test coverage\n\n",
			d(p.Baseline.BuildTestSeconds), d(p.Baseline.BenchCoverageSeconds), d(p.Baseline.TestCoverageSeconds))
	} else {
		writeQuickHead(&b, p, d)
	}
	t := &table{indent: ""}
	t.add(append([]string{"expected"}, p.Levels...)...)
	row := func(name string, f func(PlanLevel) float64, format func(float64) string) {
		r := []string{name}
		for _, l := range p.Levels {
			v := f(p.ByLevel[l])
			c := format(v)
			if q != nil {
				lo, hi := f(q.Low[l]), f(q.High[l])
				if lo > hi {
					lo, hi = hi, lo
				}
				if format(lo) != c || format(hi) != c {
					c += " (" + format(lo) + " to " + format(hi) + ")"
				}
			}
			r = append(r, c)
		}
		t.add(r...)
	}
	n := func(v float64) string { return fmt.Sprint(int(v)) }
	row("not built (no benchmark reaches them, no test to run)", func(l PlanLevel) float64 { return float64(l.NotBuilt) }, n)
	row("built", func(l PlanLevel) float64 { return float64(l.Built) }, n)
	row("tested", func(l PlanLevel) float64 { return float64(l.Tested) }, n)
	row("measured", func(l PlanLevel) float64 { return float64(l.Measured) }, n)
	row("killed by inference", func(l PlanLevel) float64 { return float64(l.Inferred) }, n)
	row("builds (summed)", func(l PlanLevel) float64 { return l.BuildSeconds }, d)
	row("tests (summed)", func(l PlanLevel) float64 { return l.TestSeconds }, d)
	row("measurement", func(l PlanLevel) float64 { return l.MeasureSeconds }, d)
	row("rounds per measured mutant", func(l PlanLevel) float64 { return l.MeasureRounds }, func(v float64) string { return fmt.Sprintf("%.1f", v) })
	t.write(&b)
	wall := d(p.WallSeconds)
	if q != nil {
		wall += " (" + d(q.WallLow) + " to " + d(q.WallHigh) + ")"
	}
	fmt.Fprintf(&b, "\nexpected wall time: %s (builds and tests on %s, measurement alone)\n", wall, english.Plural(p.Jobs, "worker"))
	if p.Within != "" && q != nil && q.NoFit {
		fmt.Fprintf(&b, "-within %s: no shard count fits: every shard repeats the baseline steps, estimated at %s alone;\n", p.Within, d(p.Baseline.total()))
		fmt.Fprintf(&b, "  with -shard k/%d each shard's mutants take about %s more (-opt on or fewer packages per campaign shorten the baseline)\n", p.Shards, p.Within)
	} else if p.Within != "" {
		fmt.Fprintf(&b, "-within %s: -shard k/%d (each shard about %s, baseline included)\n", p.Within, p.Shards,
			d(p.Baseline.total()+(p.WallSeconds-p.Baseline.total())/float64(p.Shards)))
		if q != nil && q.ShardsHigh != p.Shards {
			fmt.Fprintf(&b, "  at the high end: -shard k/%d\n", q.ShardsHigh)
		}
	}
	if w, n, ok := p.longerWindow(); ok {
		fmt.Fprintf(&b, "  the baseline steps (%s) take half of -within or more in every shard: -within %s would need -shard k/%d\n", d(p.Baseline.total()), w, n)
	}
	if q != nil {
		b.WriteString("The quick plan reads reach from function names, not coverage (an over-estimate of what is measured for direct calls);\n" +
			"the ranges: low = one benchmark, one build, no test per mutant; high = every benchmark and test of the importing packages.\n" +
			"-plan=exact runs the baseline steps and a real mutant build for a plan from coverage.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeQuickHead writes a quick plan's first lines: what it is made of.
func writeQuickHead(b *strings.Builder, p *Plan, d func(float64) string) {
	q := p.Quick
	fmt.Fprintf(b, "quick plan for %s: %s at %s, made in %s without the baseline steps\n", p.Module, english.Plural(p.Mutants, "mutant"),
		strings.Join(p.Levels, " and "), d(q.Seconds))
	fmt.Fprintf(b, "found in the source: %s, %s\n", english.Plural(q.Benchmarks, "benchmark"), english.Plural(q.Tests, "test"))
	for _, t := range q.Timed {
		tests := "tests not run"
		if t.TestSeconds > 0 {
			tests = "tests " + d(t.TestSeconds)
			if t.TestsTimedOut {
				tests = "tests over " + d(t.TestSeconds) + " (stopped)"
			}
		}
		if t.BuildStopped {
			fmt.Fprintf(b, "timed %s: builds stopped by the timing budget after %s (first) and %s (mutant), lower bounds\n", t.Package, d(t.FirstBuildSeconds), d(t.MutantBuildSeconds))
			continue
		}
		fmt.Fprintf(b, "timed %s: first build %s, mutant build %s, %s\n", t.Package, d(t.FirstBuildSeconds), d(t.MutantBuildSeconds), tests)
	}
	fmt.Fprintf(b, "baseline (estimated): %s build and test, %s benchmark coverage, %s test coverage\n\n",
		d(p.Baseline.BuildTestSeconds), d(p.Baseline.BenchCoverageSeconds), d(p.Baseline.TestCoverageSeconds))
}

func (b BaselineTimes) total() float64 {
	return b.BuildTestSeconds + b.BenchCoverageSeconds + b.TestCoverageSeconds
}

// longerWindow is, when the baseline steps take half of Within or more,
// a window that leaves each shard at least half of it for its mutants
// (twice the baseline, in whole half hours) and the shard count it needs.
func (p *Plan) longerWindow() (string, int, bool) {
	within, err := time.ParseDuration(p.Within)
	base := p.Baseline.total()
	if err != nil || within <= 0 || base < within.Seconds()/2 {
		return "", 0, false
	}
	half := (30 * time.Minute).Seconds()
	w := math.Ceil(2*base/half) * half
	n := max(1, int(math.Ceil((p.WallSeconds-base)/(w-base))))
	return time.Duration(w * float64(time.Second)).String(), n, true
}
