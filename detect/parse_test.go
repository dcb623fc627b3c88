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
BenchmarkX/a-2   	    100	       11.5 ns/op
BenchmarkX/b-2   	    100	       90 ns/op
PASS
`
	if got, want := parseNsPerOp(out, 2), []float64{110.5, 101.5}; !slices.Equal(got, want) {
		t.Errorf("parseNsPerOp = %v, want %v (sub-benchmarks summed per round)", got, want)
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

func TestIterations(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		ns   float64
		want int
	}{{time.Second, 1000, 1_000_000}, {time.Second, 5e9, 1}, {time.Second, 0, 1}} {
		if got := iterations(tt.d, tt.ns); got != tt.want {
			t.Errorf("iterations(%v, %v) = %d, want %d", tt.d, tt.ns, got, tt.want)
		}
	}
}

func TestRerun(t *testing.T) {
	for _, tt := range []struct {
		n     int
		total int64
		want  int
		again bool
	}{{1000, 160, 1000, false}, {1000, 150, 1000, false}, {1000, 100, 1000, true}, {1000, 80, 1500, true}, {1000, 40, 4000, true}, {1000, 0, 4000, true}} {
		if got, again := rerun(tt.n, tt.total); got != tt.want || again != tt.again {
			t.Errorf("rerun(%d, %d) = %d, %v; want %d, %v", tt.n, tt.total, got, again, tt.want, tt.again)
		}
	}
}
