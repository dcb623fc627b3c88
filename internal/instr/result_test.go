package instr

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestItersFrom: from a start whose n extra iterations already execute a
// tenth of the budget, one calibration count (the runs at 2 and start +
// 2) gives N.
func TestItersFrom(t *testing.T) {
	s := fakeSampler(t, "", 7)
	log := filepath.Join(t.TempDir(), "log")
	s.Env = append(s.Env, "FAKE_LOG="+log)
	n, perOp, err := s.ItersFrom(context.Background(), fakeBench, 1_000_000, 20_000)
	if err != nil {
		t.Fatal(err)
	}
	if n != 142858 || perOp != 7 {
		t.Errorf("ItersFrom = %d, %g; want 142858 (1e6/7), 7", n, perOp)
	}
	runs, _ := os.ReadFile(log)
	// The two runs may run at the same time (Sampler.Sequential).
	if got := strings.Fields(string(runs)); !reflect.DeepEqual(slices.Sorted(slices.Values(got)), []string{"2", "20002"}) {
		t.Errorf("ItersFrom ran the benchmark at %q iterations, want 2 and 20002", got)
	}
}

// TestWriteResult: a sample is a comment with the raw counts and a
// benchmark line with instructions/op and the 2N run's B/op and
// allocs/op; ReadResults reads the values back by benchmark.
func TestWriteResult(t *testing.T) {
	s := Sample{PerOp: 85610.75, N: 1168, Short: 4847434, Long: 104840790,
		Output: []byte("goos: linux\nBenchmarkJoinLower \t    1170\t   1234567 ns/op\t    4096 B/op\t       3 allocs/op\nPASS\n")}
	if got, want := s.Values(), map[string]float64{Unit: 85610.75, "B/op": 4096, "allocs/op": 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("Values = %v, want %v", got, want)
	}
	var b strings.Builder
	if err := WriteResult(&b, "BenchmarkJoinLower", s); err != nil {
		t.Fatal(err)
	}
	noMem := Sample{PerOp: 12, N: 100, Short: 5000, Long: 6200, Output: []byte("BenchmarkSub/a=1 \t 102\t 5 ns/op\n")}
	if err := WriteResult(&b, "BenchmarkSub/a=1", noMem); err != nil {
		t.Fatal(err)
	}
	want := "# instructions of BenchmarkJoinLower: 4847434 at 2 iterations, 104840790 at 1170\n" +
		"BenchmarkJoinLower-1 1168 85610.75 instructions/op 4096 B/op 3 allocs/op\n" +
		"# instructions of BenchmarkSub/a=1: 5000 at 2 iterations, 6200 at 102\n" +
		"BenchmarkSub/a=1-1 100 12 instructions/op\n"
	if b.String() != want {
		t.Errorf("WriteResult wrote\n%s\nwant\n%s", b.String(), want)
	}
	file := b.String() + "# censored: a comment\nBenchmarkJoinLower-1 1168 85600 instructions/op\nBenchmarkOther 10 5 ns/op\n"
	got, err := readResults(strings.NewReader(file), "mut.txt")
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string][]float64{"BenchmarkJoinLower": {85610.75, 85600}, "BenchmarkSub/a=1": {12}}; !reflect.DeepEqual(got, want) {
		t.Errorf("ReadResults = %v, want %v", got, want)
	}
	if _, err := readResults(strings.NewReader("BenchmarkX-1 12 bad instructions/op\n"), "mut.txt"); err == nil ||
		err.Error() != "mut.txt:1: parsing measurement: invalid syntax" {
		t.Errorf("ReadResults of a malformed line: error %v", err)
	}
}

// TestSampleOne: the set-up of a two-process sample, subtracted from one
// run at 2N, gives the same count per operation; a set-up as large as the
// run is an error. WriteResult says what was subtracted.
func TestSampleOne(t *testing.T) {
	s := fakeSampler(t, "", 7)
	two, err := s.Sample(context.Background(), fakeBench, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got := setUpOf(two); got != 1000 {
		t.Errorf("setUpOf = %g, want 1000 (FAKE_BASE)", got)
	}
	one, err := s.sampleOne(context.Background(), fakeBench, 50, setUpOf(two))
	if err != nil {
		t.Fatal(err)
	}
	if one.PerOp != 7 || one.N != 50 || one.Short != 0 || one.Long != 1364 || one.SetUp != 1000 {
		t.Errorf("sampleOne = %+v, want PerOp 7, N 50, Long 1364, SetUp 1000", one)
	}
	var b strings.Builder
	if err := WriteResult(&b, "BenchmarkFake", one); err != nil {
		t.Fatal(err)
	}
	if want := "# instructions of BenchmarkFake: 1364 at 52 iterations, less a set-up of 1000\nBenchmarkFake-1 50 7 instructions/op\n"; b.String() != want {
		t.Errorf("WriteResult wrote %q, want %q", b.String(), want)
	}
	if _, err := s.sampleOne(context.Background(), fakeBench, 50, 1364); err == nil ||
		err.Error() != "benchmark ^BenchmarkFake$ counted 1364 instructions at 52 iterations, no more than its set-up's 1364: too few iterations to see its work; raise the count" {
		t.Errorf("sampleOne with the whole run as set-up: error %v", err)
	}
}
