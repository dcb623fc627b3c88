package detect

import (
	"slices"
	"testing"
	"time"
)

func TestParseNsPerOp(t *testing.T) {
	out := `goos: linux
BenchmarkX/a-2   	    100	       10.5 ns/op	      8 B/op
BenchmarkX/b-2   	    100	       100 ns/op
BenchmarkY-2   	    100	       7 ns/op
BenchmarkX/a-2   	    100	       11.5 ns/op
BenchmarkX/b-2   	    100	       90 ns/op
BenchmarkY-2   	    100	       8 ns/op
BenchmarkX/a-2   	    100	       12 ns/op
PASS
`
	got := parseNsPerOp(out, 3)
	if want := []float64{110.5, 101.5}; !slices.Equal(got["BenchmarkX"], want) {
		t.Errorf("BenchmarkX: %v, want %v (sub-benchmarks summed per round; the third round is incomplete)", got["BenchmarkX"], want)
	}
	if want := []float64{7, 8}; !slices.Equal(got["BenchmarkY"], want) || len(got) != 2 {
		t.Errorf("parseNsPerOp = %v, want BenchmarkY %v", got, want)
	}
	if got := parseNsPerOp("PASS\n", 3); len(got) != 0 {
		t.Errorf("no results: %v", got)
	}
}

func TestGrowth(t *testing.T) {
	ran, grows := Growth(map[string]int64{"setup": 2, "loop": 3, "gone": 1}, map[string]int64{"setup": 2, "loop": 6, "new": 4})
	for fn, w := range map[string][2]bool{"setup": {true, false}, "loop": {true, true}, "gone": {true, false}, "new": {true, true}, "never": {false, false}} {
		if ran[fn] != w[0] || grows[fn] != w[1] {
			t.Errorf("%s: ran %v grows %v, want %v", fn, ran[fn], grows[fn], w)
		}
	}
}

func TestRerun(t *testing.T) {
	for _, tt := range []struct {
		rounds, left int
		total        int64
		want         int
		again        bool
	}{
		{10, 20, 50, 0, false}, {10, 20, 80, 0, false},
		{10, 20, 25, 10, true}, {10, 20, 40, 3, true}, {10, 20, 5, 20, true}, {10, 20, 0, 20, true}, {1, 2, 49, 2, true},
		// A first run already made longer (firstRounds) leaves less of
		// the bound: 25 of 30 rounds leave 5; 29 leave none.
		{25, 5, 10, 5, true}, {25, 5, 45, 3, true}, {29, 1, 10, 0, false},
	} {
		if got, again := rerun(tt.rounds, tt.left, tt.total); got != tt.want || again != tt.again {
			t.Errorf("rerun(%d, %d, %d) = %d, %v; want %d, %v", tt.rounds, tt.left, tt.total, got, again, tt.want, tt.again)
		}
	}
}

func TestFirstRounds(t *testing.T) {
	for _, tt := range []struct {
		perRound []float64
		want     int
	}{
		{nil, 10},                  // the first benchmark: the run's rounds
		{[]float64{5.5}, 10},       // 55 samples in 10 rounds: enough
		{[]float64{4.5}, 13},       // 45 in 10 (an idle 250 Hz machine): 55/4.5
		{[]float64{2, 2.5, 9}, 22}, // the median rate, 2.5 a round: 55/2.5
		{[]float64{0.5}, 30},       // a starved machine: the bound, 3 times 10
		{[]float64{0, 0, 3}, 10},   // a median of 0 (set-up-bound benchmarks) says nothing
	} {
		if got := firstRounds(10, tt.perRound); got != tt.want {
			t.Errorf("firstRounds(10, %v) = %d, want %d", tt.perRound, got, tt.want)
		}
	}
}

func TestTopName(t *testing.T) {
	for in, want := range map[string]string{"BenchmarkX/a-2": "BenchmarkX", "BenchmarkY-8": "BenchmarkY", "BenchmarkZ": "BenchmarkZ", "BenchmarkX/b/c-2": "BenchmarkX"} {
		if got := topName(in); got != want {
			t.Errorf("topName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExecName(t *testing.T) {
	for in, want := range map[string]string{"example.com/m": "m", "example.com/m/v2": "m", "example.com/m/v2/sub": "sub", "v2": "v2", "example.com/m/version": "version"} {
		if got := execName(in); got != want {
			t.Errorf("execName(%q) = %q, want %q", in, got, want)
		}
	}
	groups := byExecName([]Pkg{{ImportPath: "a/x"}, {ImportPath: "b/x"}, {ImportPath: "a/y"}, {ImportPath: "c/x/v3"}})
	var got [][]string
	for _, g := range groups {
		got = append(got, importPaths(g))
	}
	if len(got) != 3 || !slices.Equal(got[0], []string{"a/x", "a/y"}) || !slices.Equal(got[1], []string{"b/x"}) || !slices.Equal(got[2], []string{"c/x/v3"}) {
		t.Errorf("byExecName = %v, want [a/x a/y] [b/x] [c/x/v3]", got)
	}
}

func TestPerOp(t *testing.T) {
	got := PerOp(map[string]int64{"f.go:1.2": 2, "f.go:3.4": 302, "f.go:9.1": 7}, map[string]int64{"f.go:1.2": 2, "f.go:3.4": 602, "f.go:5.6": 50}, 100)
	if len(got) != 2 || got["f.go:3.4"] != 3 || got["f.go:5.6"] != 0.5 {
		t.Errorf("PerOp = %v, want f.go:3.4 3 and f.go:5.6 0.5 (set-up blocks left out)", got)
	}
}

func TestCalibrationTime(t *testing.T) {
	if got := calibrationTime(20 * time.Millisecond); got != 5*time.Millisecond {
		t.Errorf("calibrationTime(20ms) = %v, want 5ms", got)
	}
	if got := calibrationTime(2 * time.Millisecond); got != time.Millisecond {
		t.Errorf("calibrationTime(2ms) = %v, want 1ms", got)
	}
}
