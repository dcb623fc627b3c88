package detect

import (
	"slices"
	"testing"
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
