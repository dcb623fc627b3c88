package attrib

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// moduleKeyer is the keyer of the module example.com/m: its names up to
// the first dot after the last slash, closures and type arguments kept
// out as detect.KeyOf keeps them.
func moduleKeyer(name string) string {
	if !strings.HasPrefix(name, "example.com/m/") && !strings.HasPrefix(name, "example.com/demo/") {
		return ""
	}
	name = strings.TrimSuffix(name, ".func1")
	return strings.Replace(name, "[go.shape.int]", "", 1)
}

// synthetic builds a CPU profile of stacks (innermost first; a frame
// "a+b" is a location whose inlined frame a runs inside b) with values.
func synthetic(stacks [][]string, values []int64) *profile.Profile {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}}
	funcs := map[string]*profile.Function{}
	fn := func(name string) *profile.Function {
		if funcs[name] == nil {
			funcs[name] = &profile.Function{ID: uint64(len(funcs) + 1), Name: name}
			p.Function = append(p.Function, funcs[name])
		}
		return funcs[name]
	}
	for i, st := range stacks {
		s := &profile.Sample{Value: []int64{1, values[i]}}
		for _, frame := range st {
			loc := &profile.Location{ID: uint64(len(p.Location) + 1)}
			for _, name := range strings.Split(frame, "+") {
				loc.Line = append(loc.Line, profile.Line{Function: fn(name)})
			}
			p.Location = append(p.Location, loc)
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

// TestCharge: a sample goes to its innermost module frame, the runtime
// and the standard library below it included; a sample without one to
// its outermost frame; Cum and Callees follow the module frames.
func TestCharge(t *testing.T) {
	p := synthetic([][]string{
		{"runtime.mallocgc", "example.com/m/p.F", "example.com/m/p.BenchmarkF", "testing.(*B).runN", "runtime.goexit"},
		{"example.com/m/p.G+example.com/m/p.F", "example.com/m/p.BenchmarkF", "runtime.goexit"}, // G inlined in F
		{"example.com/m/p.F.func1", "example.com/m/p.F", "example.com/m/p.BenchmarkF"},          // a closure of F
		{"runtime.scanobject", "runtime.gcBgMarkWorker", "runtime.goexit"},
		{"sync.(*Mutex).Lock", "example.com/m/p.(*T[go.shape.int]).Get", "example.com/m/p.F", "example.com/m/p.BenchmarkF"},
	}, []int64{10, 20, 40, 80, 160})
	c, err := Charge(p, "cpu", moduleKeyer)
	if err != nil {
		t.Fatal(err)
	}
	if c.Total != 310 {
		t.Errorf("Total %v, want 310", c.Total)
	}
	wantSelf := map[string]float64{"example.com/m/p.F": 50, "example.com/m/p.G": 20, "runtime.gcBgMarkWorker": 80, "example.com/m/p.(*T).Get": 160}
	if !reflect.DeepEqual(c.Self, wantSelf) {
		t.Errorf("Self %v, want %v", c.Self, wantSelf)
	}
	wantCum := map[string]float64{"example.com/m/p.F": 230, "example.com/m/p.G": 20, "example.com/m/p.BenchmarkF": 230, "example.com/m/p.(*T).Get": 160}
	if !reflect.DeepEqual(c.Cum, wantCum) {
		t.Errorf("Cum %v, want %v", c.Cum, wantCum)
	}
	wantCallees := map[string]map[string]bool{
		"example.com/m/p.F":          {"example.com/m/p.G": true, "example.com/m/p.(*T).Get": true},
		"example.com/m/p.BenchmarkF": {"example.com/m/p.F": true, "example.com/m/p.G": true, "example.com/m/p.(*T).Get": true},
	}
	if !reflect.DeepEqual(c.Callees, wantCallees) {
		t.Errorf("Callees %v, want %v", c.Callees, wantCallees)
	}
	wantStacks := map[string]float64{
		"example.com/m/p.BenchmarkF > example.com/m/p.F":                     50,
		"example.com/m/p.BenchmarkF > example.com/m/p.F > example.com/m/p.G": 20,
		"": 80,
		"example.com/m/p.BenchmarkF > example.com/m/p.F > example.com/m/p.(*T).Get": 160,
	}
	if !reflect.DeepEqual(c.Stacks, wantStacks) || c.GC != 80 {
		t.Errorf("Stacks %v, GC %v; want %v, 80", c.Stacks, c.GC, wantStacks)
	}
	if _, err := Charge(p, "alloc_space", moduleKeyer); err == nil || err.Error() != "profile has no alloc_space values (it has samples, cpu)" {
		t.Errorf("Charge of a missing type: %v", err)
	}
}

// TestChargeRecorded: on real CPU profiles of the demo's BenchmarkGet
// every sample is charged once (the charges add up to the total) and no
// runtime function is charged while a module function is on its stack.
func TestChargeRecorded(t *testing.T) {
	for _, name := range []string{"old-1.cpu", "spin-1.cpu", "old-1.mem", "alloc-1.mem"} {
		ps, err := Read([]string{"testdata/get/" + name})
		if err != nil {
			t.Fatal(err)
		}
		typ := "cpu"
		if strings.HasSuffix(name, ".mem") {
			typ = "alloc_space"
		}
		c, err := Charge(ps[0], typ, moduleKeyer)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for k, v := range c.Self {
			sum += v
			if strings.HasPrefix(k, "runtime.mallocgc") || strings.HasPrefix(k, "sync.") {
				t.Errorf("%s: %s charged %v: its module caller should be", name, k, v)
			}
		}
		if c.Total == 0 || math.Abs(sum-c.Total) > 1e-9*c.Total {
			t.Errorf("%s: charges add up to %v, total %v", name, sum, c.Total)
		}
	}
}
