package instr

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// needValgrind skips t with the reason when valgrind cannot count
// instructions here.
func needValgrind(t *testing.T) Info {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the runs under valgrind")
	}
	info, err := Available(context.Background())
	if err != nil {
		t.Skipf("valgrind unavailable, skipping: %v", err)
	}
	return info
}

// buildWork compiles testdata/work's test binary into a temporary
// directory.
func buildWork(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "work.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = "testdata/work"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	return bin
}

// workSampler skips t without valgrind, and otherwise returns a Sampler
// and the benchmarks of testdata/work's test binary by pattern.
func workSampler(t *testing.T) (*Sampler, func(pattern string) Bench) {
	t.Helper()
	info := needValgrind(t)
	bin := buildWork(t)
	return &Sampler{Valgrind: info.Path}, func(pattern string) Bench {
		return Bench{Bin: bin, Dir: "testdata/work", Pattern: pattern}
	}
}

// mustSample is s.Sample, failing t on an error.
func mustSample(t *testing.T, s *Sampler, b Bench, n int) Sample {
	t.Helper()
	smp, err := s.Sample(context.Background(), b, n)
	if err != nil {
		t.Fatal(err)
	}
	return smp
}

// TestAvailable: where valgrind is installed, Available finds its version
// and runs a Go program under it.
func TestAvailable(t *testing.T) {
	info := needValgrind(t)
	if info.Path == "" || info.Version == "" {
		t.Errorf("Available = %+v, want a path and a version", info)
	}
}

// TestSampleTwiceTheWork: a benchmark doing twice the work of another
// counts twice the instructions per operation, within 1%.
func TestSampleTwiceTheWork(t *testing.T) {
	s, bench := workSampler(t)
	one, two := bench("^BenchmarkWork$"), bench("^BenchmarkWork2x$")
	n, perOp, err := s.Iters(context.Background(), one, 20_000_000)
	if err != nil {
		t.Fatal(err)
	}
	// 4096 rounds of a loop of several instructions.
	if perOp < 4*4096 || perOp > 20*4096 {
		t.Errorf("Iters: %g instructions per operation, want 4 to 20 per round of 4096", perOp)
	}
	a, b := mustSample(t, s, one, n), mustSample(t, s, two, n)
	if r := b.PerOp / a.PerOp; r < 1.98 || r > 2.02 {
		t.Errorf("BenchmarkWork2x/BenchmarkWork = %.4f (%g/%g at N=%d), want 2 within 1%%", r, b.PerOp, a.PerOp, n)
	}
}

// TestSampleCancelsSetUp: BenchmarkAlloc's set-up (about 65536 calls of
// Mix before its loop) is in each whole-process count but not in the
// difference: the count per operation at N (from Iters) and at 4N agree
// within 5%, while the whole count at N+2 over N is far above it. (Were the
// set-up in the count, the whole count being at least twice the per
// operation one would put the ratio below 0.65; the allocating loop's own
// count moves a few per cent with the heap's growth between N and 4N: 0.96
// was seen on a machine at load 20.)
func TestSampleCancelsSetUp(t *testing.T) {
	s, bench := workSampler(t)
	b := bench("^BenchmarkAlloc$")
	n, _, err := s.Iters(context.Background(), b, 20_000_000)
	if err != nil {
		t.Fatal(err)
	}
	small, large := mustSample(t, s, b, n), mustSample(t, s, b, 4*n)
	if r := large.PerOp / small.PerOp; r < 0.95 || r > 1.05 {
		t.Errorf("per operation at %d / at %d = %.4f (%g/%g), want 1 within 5%%", 4*n, n, r, large.PerOp, small.PerOp)
	}
	if whole := float64(small.Long) / float64(small.N); whole < 2*small.PerOp {
		t.Errorf("whole count at N+2 over N = %g, per operation %g: want the set-up to show in the whole count", whole, small.PerOp)
	}
}
