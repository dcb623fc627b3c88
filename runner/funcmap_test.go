package runner

import (
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/detect"
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
