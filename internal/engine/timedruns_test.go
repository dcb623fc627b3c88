package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestTimedRuns: of two profiles at N and 2N iterations, the blocks that
// ran in either are kept with both counts, and those that ran more often
// at 2N grow (the timed loop); blocks of other files and blocks that never
// ran are left out.
func TestTimedRuns(t *testing.T) {
	dir := t.TempDir()
	read := func(name, prof string) map[string][]CovBlock {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(prof), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := readProfile(f)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p2 := read("2x", "mode: count\nexample.com/m/text/text.go:21.30,23.3 2 17\nexample.com/m/text/text.go:30.2,31.10 1 4\nexample.com/m/text/text.go:40.2,41.10 1 0\nexample.com/m/text/text.go:21.30,23.3 2 3\n")
	p3 := read("3x", "mode: count\nexample.com/m/text/text.go:21.30,23.3 2 30\nexample.com/m/text/text.go:30.2,31.10 1 4\nexample.com/m/text/text.go:40.2,41.10 1 0\n")
	got := timedRuns(p2, p3)
	want := map[string][]CovBlock{"example.com/m/text/text.go": {{StartLine: 21, StartCol: 30, EndLine: 23, EndCol: 3, CountN: 20, Count2N: 30}, {StartLine: 30, StartCol: 2, EndLine: 31, EndCol: 10, CountN: 4, Count2N: 4}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("timedRuns = %v, want %v", got, want)
	}
	b := got["example.com/m/text/text.go"]
	if b[0].Growth() != 10 || b[1].Growth() != 0 {
		t.Errorf("growth %d, %d; want 10 (timed loop), 0 (setup)", b[0].Growth(), b[1].Growth())
	}
	for _, tc := range []struct {
		line, col int
		want      bool
	}{
		{21, 30, true},
		{22, 1, true},
		{23, 2, true},
		{23, 3, false}, // the end is exclusive
		{21, 29, false},
	} {
		if got := b[0].Contains(tc.line, tc.col); got != tc.want {
			t.Errorf("contains(%d:%d) = %v, want %v", tc.line, tc.col, got, tc.want)
		}
	}
}
