package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfmut/perfmut/report"
)

// TestPlan: -plan builds no mutant of the campaign but counts, from the
// baseline's coverage, the mutants it would not build, build, test,
// measure and kill by inference, with times from the baseline and one
// real mutant build; -within gives the shard count.
func TestPlan(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds a module")
	}
	mod, pkgs := testModule(t, "hot")
	const pkg, file = "example.com/hot/calc", "calc/calc.go"
	small := mkMutant(t, mod, "sum-spin", pkg, file, "func Sum(", "s += x", "s += x\n\t\tfor perfmut_i := 0; perfmut_i < 200; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}")
	small.Operator, small.Params = "spin-loop", map[string]any{"iterations": 200}
	big := mkMutant(t, mod, "sum-spin-big", pkg, file, "func Sum(", "s += x", "s += x\n\t\tfor perfmut_i := 0; perfmut_i < 2000; perfmut_i++ {\n\t\t\tperfmut_sink += perfmut_i\n\t\t}")
	big.Operator, big.Params = "spin-loop", map[string]any{"iterations": 2000}
	unbreak := mkMutant(t, mod, "find-unbreak", pkg, file, "func Find(", "\n\t\t\tbreak", "")
	unused := mkMutant(t, mod, "unused-spin", pkg, file, "func Unused(", "p *= 3", "p *= 3\n\t\tperfmut_sink++")
	orphan := mkMutant(t, mod, "orphan-spin", pkg, file, "func Orphan(", "s += i", "s += i\n\t\tperfmut_sink++")
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, nil, out)
	c.Mutants = append(c.Mutants, small, big, unbreak, unused, orphan)
	c.Levels, c.Benchtime, c.Infer = []string{report.Opt}, "", true
	p, err := c.Plan(context.Background(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	got := p.ByLevel[report.Opt]
	want := report.PlanLevel{NotBuilt: 1, Built: 4, Tested: 2, Measured: 2, Inferred: 1, MeasureRounds: 7.5}
	times := [3]float64{got.BuildSeconds, got.TestSeconds, got.MeasureSeconds}
	got.BuildSeconds, got.TestSeconds, got.MeasureSeconds = 0, 0, 0
	if got != want {
		t.Errorf("plan %+v, want %+v", got, want)
	}
	if times[0] <= 0 || times[1] <= 0 || times[2] <= 0 || p.WallSeconds <= times[2] {
		t.Errorf("times: builds %v, tests %v, measurement %v, wall %v; want all > 0", times[0], times[1], times[2], p.WallSeconds)
	}
	if p.Shards != 1 || p.Within != "1h0m0s" {
		t.Errorf("-within 1h: %d shards (%q), want 1", p.Shards, p.Within)
	}
	if _, err := c.Plan(context.Background(), time.Millisecond); !errors.As(err, new(*InputError)) {
		t.Errorf("-within 1ms: %v, want an input error (shorter than the baseline)", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("-plan created the results directory %s", out)
	}
}
