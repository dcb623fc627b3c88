package runner

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/perfmut/perfmut/results"
)

// TestMergeMapAndNoise: merge keeps the first shard's detectability map,
// its function-map.json (for -since) and its noise, and says so: which
// shards' maps agree with it, which differ, and the other shards'
// machines. Before, the merged report kept the map without saying whose
// it was, and left function-map.json out.
func TestMergeMapAndNoise(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	mod, pkgs := testModule(t, "hot")
	base := t.TempDir()
	empty := filepath.Join(base, "empty")
	if _, err := newTestCampaign(t, mod, pkgs, nil, empty).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows := func(f float64) []results.FunctionSensitivity {
		return []results.FunctionSensitivity{{Package: "example.com/hot/calc", Function: "Sum", Status: "timed", Factor: &f, Benchmark: "example.com/hot/calc.BenchmarkSum", Share: 0.5}}
	}
	machine := func(load float64) *results.Noise {
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		s := results.Snapshot{Time: at, CPUs: 2, Load: [3]float64{load}, LoadKnown: true}
		return &results.Noise{Measures: "time", Machine: results.Machine{Start: s, End: s}}
	}
	shards := []struct {
		rows  []results.FunctionSensitivity
		noise *results.Noise
	}{{rows(1.2), machine(1)}, {rows(1.3), machine(2)}, {rows(1.2), nil}}
	var dirs []string
	for i, sh := range shards {
		rep, err := results.ReadFile(filepath.Join(empty, ReportFile))
		if err != nil {
			t.Fatal(err)
		}
		rep.Settings.Shard = []string{"1/3", "2/3", "3/3"}[i]
		rep.FunctionSensitivity, rep.FunctionMap, rep.Noise = sh.rows, &results.FunctionMap{Benchmarks: 1}, sh.noise
		dir := filepath.Join(base, []string{"s1", "s2", "s3"}[i])
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := results.WriteJSON(filepath.Join(dir, ReportFile), rep); err != nil {
			t.Fatal(err)
		}
		if err := copyFile(filepath.Join(empty, results.JournalFile), filepath.Join(dir, results.JournalFile)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, functionMapFile), []byte(`{"shard":"`+rep.Settings.Shard+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	out := filepath.Join(base, "merged")
	merged, err := Merge(out, dirs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(merged.FunctionSensitivity, shards[0].rows) || merged.FunctionMap == nil {
		t.Fatalf("merged map %+v, want shard 1's", merged.FunctionSensitivity)
	}
	wantFrom := "shard 1/3 (" + dirs[0] + "); the same map in shard 3/3 (" + dirs[2] + "); other factors in shard 2/3 (" + dirs[1] + ") (each shard profiled the benchmarks itself)"
	if merged.FunctionMap.From != wantFrom {
		t.Errorf("function_map.from = %q, want %q", merged.FunctionMap.From, wantFrom)
	}
	if data, err := os.ReadFile(filepath.Join(out, functionMapFile)); err != nil || string(data) != `{"shard":"1/3"}` {
		t.Errorf("merged %s = %q, %v; want shard 1's", functionMapFile, data, err)
	}
	if merged.Noise == nil || merged.Noise.Machine.Start.Load[0] != 1 {
		t.Fatalf("merged noise %+v, want shard 1's", merged.Noise)
	}
	want := "noise: the benchmarks' spread and the machine's load are shard 1/3 (" + dirs[0] + ")'s; the other shards' machines: shard 2/3 (" + dirs[1] + "): load 2.00 at the start, 2.00 at the end (1-minute averages, 2 CPUs); CPU steal unknown"
	if n := len(merged.Warnings); n == 0 || merged.Warnings[n-1] != want {
		t.Errorf("merged warnings %q, want last %q", merged.Warnings, want)
	}
}
