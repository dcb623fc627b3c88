package detect

import (
	"slices"
	"testing"
	"time"

	"github.com/perfmut/perfmut/mutate"
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
	ran, grows := growth(map[string]int64{"setup": 2, "loop": 3, "gone": 1}, map[string]int64{"setup": 2, "loop": 6, "new": 4})
	for fn, w := range map[string][2]bool{"setup": {true, false}, "loop": {true, true}, "gone": {true, false}, "new": {true, true}, "never": {false, false}} {
		if ran[fn] != w[0] || grows[fn] != w[1] {
			t.Errorf("%s: ran %v grows %v, want %v", fn, ran[fn], grows[fn], w)
		}
	}
}

func TestSplitRounds(t *testing.T) {
	for rounds, want := range map[int][]int{2: {2}, 3: {3}, 4: {2, 2}, 5: {3, 2}, 10: {5, 5}, 11: {6, 5}, 50: {25, 25}} {
		if got := splitRounds(rounds); !slices.Equal(got, want) {
			t.Errorf("splitRounds(%d) = %v, want %v", rounds, got, want)
		}
	}
}

func TestTooShort(t *testing.T) {
	for _, tt := range []struct {
		noise  []float64
		n      int
		sample time.Duration
		want   bool
	}{
		{[]float64{1000, 1100, 900}, 20000, 20 * time.Millisecond, false}, // rounds of 20ms
		{[]float64{1000, 1100, 900}, 5001, 20 * time.Millisecond, false},  // just over a quarter
		{[]float64{1000, 1100, 900}, 4999, 20 * time.Millisecond, true},   // just under
		{[]float64{500, 700}, 2, 20 * time.Millisecond, true},             // b.N from a slow first iteration
		{nil, 2, 20 * time.Millisecond, false},                            // no rounds: nothing to go by
		{[]float64{500}, 2, 0, false},                                     // no sample time
	} {
		if got := tooShort(tt.noise, tt.n, tt.sample); got != tt.want {
			t.Errorf("tooShort(%v, %d, %v) = %v, want %v", tt.noise, tt.n, tt.sample, got, tt.want)
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
	groups := byExecName([]*mutate.Package{{ImportPath: "a/x"}, {ImportPath: "b/x"}, {ImportPath: "a/y"}, {ImportPath: "c/x/v3"}})
	var got [][]string
	for _, g := range groups {
		got = append(got, importPaths(g))
	}
	if len(got) != 3 || !slices.Equal(got[0], []string{"a/x", "a/y"}) || !slices.Equal(got[1], []string{"b/x"}) || !slices.Equal(got[2], []string{"c/x/v3"}) {
		t.Errorf("byExecName = %v, want [a/x a/y] [b/x] [c/x/v3]", got)
	}
}

func TestPerOp(t *testing.T) {
	got := perOp(map[string]int64{"f.go:1.2": 2, "f.go:3.4": 302, "f.go:9.1": 7}, map[string]int64{"f.go:1.2": 2, "f.go:3.4": 602, "f.go:5.6": 50}, 100)
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
