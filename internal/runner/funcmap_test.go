package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/results"
)

// TestReusableMap: a map is reused from the resumed run's directory or
// from -since's (said so) only when the Go version, the machine, the
// settings and every package in scope are the same.
func TestReusableMap(t *testing.T) {
	key := mapKey{Go: "go1.26", Machine: "linux/amd64 cpu x2", Settings: "s1", Packages: map[string]string{"m/a": "h1", "m/b": "h2"}}
	f := 2.5
	m := &detect.Map{Functions: []detect.Row{{Package: "m/a", Function: "F", Status: detect.Timed, Factor: &f, Benchmark: "m/a.BenchmarkF"}}}
	since, out := t.TempDir(), t.TempDir()
	if err := results.WriteJSON(filepath.Join(since, functionMapFile), mapFile{key, m}); err != nil {
		t.Fatal(err)
	}
	got, reused := reusableMap(key, out, since)
	if got == nil || !reused || len(got.Functions) != 1 || *got.Functions[0].Factor != 2.5 {
		t.Fatalf("from -since: %+v, reused %v; want the map, reused", got, reused)
	}
	if got, _ := reusableMap(key, out, ""); got != nil {
		t.Errorf("no map in the output directory and no -since: got one")
	}
	for name, change := range map[string]func(*mapKey){
		"go":       func(k *mapKey) { k.Go = "go1.27" },
		"machine":  func(k *mapKey) { k.Machine = "other" },
		"settings": func(k *mapKey) { k.Settings = "s2" },
		"package":  func(k *mapKey) { k.Packages = map[string]string{"m/a": "h1", "m/b": "h3"} },
		"scope":    func(k *mapKey) { k.Packages = map[string]string{"m/a": "h1"} },
	} {
		k := key
		change(&k)
		if got, _ := reusableMap(k, out, since); got != nil {
			t.Errorf("%s changed: the map was reused", name)
		}
	}
	// A resumed run reuses its own map, not counted as reused from -since.
	if err := results.WriteJSON(filepath.Join(out, functionMapFile), mapFile{key, m}); err != nil {
		t.Fatal(err)
	}
	if got, reused := reusableMap(key, out, since); got == nil || reused {
		t.Errorf("resumed: %v, reused %v; want its own map, not reused", got, reused)
	}
}

// TestMapRows: a map's rows as report.json holds them, in its order.
func TestMapRows(t *testing.T) {
	f := 1.37
	m := &detect.Map{Functions: []detect.Row{
		{Package: "m/a", Function: "Unused", Status: detect.Never},
		{Package: "m/a", Function: "(*T).M", Status: detect.Timed, Factor: &f, FactorLow: 1.27, FactorHigh: 1.53, Benchmark: "m/a.BenchmarkM",
			Share: 0.422, ShareLow: 0.29, ShareHigh: 0.567, FlatShare: 0.1, Samples: 45},
	}}
	got := mapRows(m)
	want := []results.FunctionSensitivity{
		{Package: "m/a", Function: "Unused", Status: "never"},
		{Package: "m/a", Function: "(*T).M", Status: "timed", Factor: &f, FactorLow: 1.27, FactorHigh: 1.53, Benchmark: "m/a.BenchmarkM",
			Share: 0.422, ShareLow: 0.29, ShareHigh: 0.567, FlatShare: 0.1, Samples: 45},
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("mapRows = %+v, want %+v", got, want)
	}
}

// TestFunctionMapCampaign: a campaign with the map on writes a row for
// every function of the packages it loaded into report.json and keeps the
// map in its results directory; a later campaign with -since reuses it
// (nothing it depends on changed), says so, and keeps it too.
func TestFunctionMapCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	t.Parallel() // its verdicts do not depend on the load (see newTestCampaign)
	mod, pkgs := testModule(t, "hot")
	ms := hotMutants(t, mod)[:1] // sum-spin
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, ms, out)
	c.Levels, c.Settings.Opt, c.Settings.FunctionMap = []string{results.Opt}, "on", true
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, f := range rep.FunctionSensitivity {
		status[f.Package+"."+f.Function] = f.Status
		if (f.Factor != nil) != (f.Status == "timed") {
			t.Errorf("%s.%s: status %s, factor %v", f.Package, f.Function, f.Status, f.Factor)
		}
	}
	// app.Total runs only inside b.RunParallel: its coverage counts
	// grow with b.N only if no increment is lost (atomic mode).
	want := map[string]string{"example.com/hot/calc.Sum": "timed", "example.com/hot/calc.Unused": "never", "example.com/hot/calc.Orphan": "never",
		"example.com/hot/calc.Find": "timed", "example.com/hot/calc.Prepare": "set-up only", "example.com/hot/app.Total": "timed"}
	for fn, st := range want {
		if status[fn] != st {
			t.Errorf("%s: status %q, want %q (rows %v)", fn, status[fn], st, status)
		}
	}
	if rep.FunctionMap == nil || rep.FunctionMap.Reused || rep.FunctionMap.Benchmarks != 3 || rep.FunctionMap.Seconds() <= 0 {
		t.Errorf("function_map = %+v, want 3 benchmarks mapped, not reused", rep.FunctionMap)
	}
	c2 := newTestCampaign(t, mod, pkgs, ms, filepath.Join(t.TempDir(), "out2"))
	c2.Levels, c2.Settings.Opt, c2.Settings.FunctionMap, c2.Since = []string{results.Opt}, "on", true, out
	rep2, err := c2.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep2.FunctionMap == nil || !rep2.FunctionMap.Reused || len(rep2.FunctionSensitivity) != len(rep.FunctionSensitivity) {
		t.Errorf("-since: function_map = %+v with %d rows, want reused with %d", rep2.FunctionMap, len(rep2.FunctionSensitivity), len(rep.FunctionSensitivity))
	}
	if _, err := os.Stat(filepath.Join(c2.Out, functionMapFile)); err != nil {
		t.Errorf("the reused map is not kept in the new results directory: %v", err)
	}
}

// cancelOn cancels a context when a log line contains a string.
type cancelOn struct {
	needle string
	cancel context.CancelFunc
}

func (w cancelOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.needle) {
		w.cancel()
	}
	return len(p), nil
}

// TestMapInterruptKeepsReport: an interrupt while the map is made, after
// every mutant has its result, leaves report.json (with a warning saying
// -resume makes the map), not only the journal.
func TestMapInterruptKeepsReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	t.Parallel() // its verdicts do not depend on the load (see newTestCampaign)
	mod, pkgs := testModule(t, "hot")
	ms := hotMutants(t, mod)[:1]
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, ms, out)
	c.Levels, c.Settings.Opt, c.Settings.FunctionMap = []string{results.Opt}, "on", true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.Log = cancelOn{"mapping each function", cancel}
	if _, err := c.Run(ctx); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("Run: %v, want interrupted", err)
	}
	rep, err := results.ReadFile(filepath.Join(out, ReportFile))
	if err != nil {
		t.Fatalf("no report.json after the interrupt: %v", err)
	}
	if len(rep.Mutants) != 1 || rep.Mutants[0].Results[results.Opt].Status == "" {
		t.Errorf("report.json mutants %+v, want the one result", rep.Mutants)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "the function sensitivity map was interrupted; perfmut run -resume makes it") {
		t.Errorf("warnings %q lack the map's", rep.Warnings)
	}
}
