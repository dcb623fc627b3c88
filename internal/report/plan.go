package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/results"
)

// WritePlan prints a plan as a table.
func WritePlan(w io.Writer, p *results.Plan) error {
	var b strings.Builder
	d := func(s float64) string { return time.Duration(s * float64(time.Second)).Round(time.Second).String() }
	q := p.Quick
	if q == nil {
		fmt.Fprintf(&b, "plan for %s: %s at %s\n", p.Module, english.Plural(p.Mutants, "mutant"), strings.Join(p.Levels, " and "))
		// Measured: to 0.1s, the unit of the map's cost against the
		// coverage step (docs/sensitivity.md, "Cost").
		m := func(s float64) string {
			return time.Duration(s * float64(time.Second)).Round(100 * time.Millisecond).String()
		}
		fmt.Fprintf(&b, "baseline (measured): %s build and test, %s benchmark coverage, %s test coverage\n\n",
			m(p.Baseline.BuildTestSeconds), m(p.Baseline.BenchCoverageSeconds), m(p.Baseline.TestCoverageSeconds))
	} else {
		writeQuickHead(&b, p, d)
	}
	t := &table{indent: ""}
	t.add(append([]string{"expected"}, p.Levels...)...)
	row := func(name string, f func(results.PlanLevel) float64, format func(float64) string) {
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
	row("not built (no benchmark reaches them, no test to run)", func(l results.PlanLevel) float64 { return float64(l.NotBuilt) }, n)
	row("built", func(l results.PlanLevel) float64 { return float64(l.Built) }, n)
	row("tested", func(l results.PlanLevel) float64 { return float64(l.Tested) }, n)
	row("measured", func(l results.PlanLevel) float64 { return float64(l.Measured) }, n)
	row("killed by inference", func(l results.PlanLevel) float64 { return float64(l.Inferred) }, n)
	row("builds (summed)", func(l results.PlanLevel) float64 { return l.BuildSeconds }, d)
	row("tests (summed)", func(l results.PlanLevel) float64 { return l.TestSeconds }, d)
	row("measurement", func(l results.PlanLevel) float64 { return l.MeasureSeconds }, d)
	row("rounds per measured mutant", func(l results.PlanLevel) float64 { return l.MeasureRounds }, func(v float64) string { return fmt.Sprintf("%.1f", v) })
	t.write(&b)
	wall := d(p.WallSeconds)
	if q != nil {
		wall += " (" + d(q.WallLow) + " to " + d(q.WallHigh) + ")"
	}
	fmt.Fprintf(&b, "\nexpected wall time: %s (builds and tests on %s, measurement alone)\n", wall, english.Plural(p.Jobs, "worker"))
	if p.Within != "" && q != nil && q.NoFit {
		fmt.Fprintf(&b, "-within %s: no shard count fits: every shard repeats the baseline steps, estimated at %s alone;\n", p.Within, d(baselineTotal(p.Baseline)))
		fmt.Fprintf(&b, "  with -shard k/%d each shard's mutants take about %s more (-opt on or fewer packages per campaign shorten the baseline)\n", p.Shards, p.Within)
	} else if p.Within != "" {
		fmt.Fprintf(&b, "-within %s: -shard k/%d (each shard about %s, baseline included)\n", p.Within, p.Shards,
			d(baselineTotal(p.Baseline)+(p.WallSeconds-baselineTotal(p.Baseline))/float64(p.Shards)))
		if q != nil && q.ShardsHigh != p.Shards {
			fmt.Fprintf(&b, "  at the high end: -shard k/%d\n", q.ShardsHigh)
		}
	}
	if w, n, ok := longerWindow(p); ok {
		fmt.Fprintf(&b, "  the baseline steps (%s) take half of -within or more in every shard: -within %s would need -shard k/%d\n", d(baselineTotal(p.Baseline)), w, n)
	}
	writePlanMap(&b, p.FunctionMap)
	if q != nil {
		b.WriteString("The quick plan reads reach from function names, not coverage (an over-estimate of what is measured for direct calls);\n" +
			"the ranges: low = one benchmark, one build, no test per mutant; high = every benchmark and test of the importing packages.\n" +
			"-plan=exact runs the baseline steps and a real mutant build for a plan from coverage.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeQuickHead writes a quick plan's first lines: what it is made of.
func writeQuickHead(b *strings.Builder, p *results.Plan, d func(float64) string) {
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

func baselineTotal(b results.BaselineTimes) float64 {
	return b.BuildTestSeconds + b.BenchCoverageSeconds + b.TestCoverageSeconds
}

// longerWindow is, when the baseline steps take half of Within or more,
// a window that leaves each shard at least half of it for its mutants
// (twice the baseline, in whole half hours) and the shard count it needs.
func longerWindow(p *results.Plan) (string, int, bool) {
	within, err := time.ParseDuration(p.Within)
	base := baselineTotal(p.Baseline)
	if err != nil || within <= 0 || base < within.Seconds()/2 {
		return "", 0, false
	}
	half := (30 * time.Minute).Seconds()
	w := math.Ceil(2*base/half) * half
	n := max(1, int(math.Ceil((p.WallSeconds-base)/(w-base))))
	return time.Duration(w * float64(time.Second)).String(), n, true
}

// writePlanMap says what bounds the campaign's function sensitivity map,
// if it makes one.
func writePlanMap(b *strings.Builder, m *results.PlanMap) {
	if m == nil {
		return
	}
	fmt.Fprintf(b, "then the function sensitivity map (-function-map=false leaves it out), bounded: two builds of the test binaries of %s (as the baseline's),\n"+
		"  and per benchmark (%d in the source) a calibration in each binary, two coverage runs of about 50 and 100ms of the coverage binary\n"+
		"  and a profiled run of %d rounds of %s (two processes of half the rounds): at most %s of benchmark iterations\n",
		english.Plural(m.Packages, "package"), m.Benchmarks, m.Rounds, time.Duration(m.SampleSeconds*float64(time.Second)),
		time.Duration(m.BenchSeconds*float64(time.Second)).Round(100*time.Millisecond))
}
