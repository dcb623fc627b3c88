package report

import (
	"fmt"
	"io"
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
	fmt.Fprintf(&b, "plan for %s: %s at %s\n", p.Module, english.Plural(p.Mutants, "mutant"), strings.Join(p.Levels, " and "))
	fmt.Fprintf(&b, "baseline (measured): %s build and test, %s benchmark coverage, %s test coverage\n\n",
		d(p.Baseline.BuildTestSeconds), d(p.Baseline.BenchCoverageSeconds), d(p.Baseline.TestCoverageSeconds))
	t := &table{indent: ""}
	t.add(append([]string{"expected"}, p.Levels...)...)
	row := func(name string, f func(PlanLevel) string) {
		r := []string{name}
		for _, l := range p.Levels {
			r = append(r, f(p.ByLevel[l]))
		}
		t.add(r...)
	}
	row("not built (no benchmark reaches them, no test to run)", func(l PlanLevel) string { return fmt.Sprint(l.NotBuilt) })
	row("built", func(l PlanLevel) string { return fmt.Sprint(l.Built) })
	row("tested", func(l PlanLevel) string { return fmt.Sprint(l.Tested) })
	row("measured", func(l PlanLevel) string { return fmt.Sprint(l.Measured) })
	row("killed by inference", func(l PlanLevel) string { return fmt.Sprint(l.Inferred) })
	row("builds (summed)", func(l PlanLevel) string { return d(l.BuildSeconds) })
	row("tests (summed)", func(l PlanLevel) string { return d(l.TestSeconds) })
	row("measurement", func(l PlanLevel) string { return d(l.MeasureSeconds) })
	row("rounds per measured mutant", func(l PlanLevel) string { return fmt.Sprintf("%.1f", l.MeasureRounds) })
	t.write(&b)
	fmt.Fprintf(&b, "\nexpected wall time: %s (builds and tests on %s, measurement alone)\n", d(p.WallSeconds), english.Plural(p.Jobs, "worker"))
	if p.Within != "" {
		fmt.Fprintf(&b, "-within %s: -shard k/%d (each shard about %s, baseline included)\n", p.Within, p.Shards,
			d(p.Baseline.total()+(p.WallSeconds-p.Baseline.total())/float64(p.Shards)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (b BaselineTimes) total() float64 {
	return b.BuildTestSeconds + b.BenchCoverageSeconds + b.TestCoverageSeconds
}
