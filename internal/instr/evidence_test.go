package instr

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"strconv"
	"testing"
	"time"
)

// The evidence of docs/instructions.md: go test -run TestEvidence -v
// ./internal/instr -instr.base BIN [-instr.mut BIN] -instr.bench PATTERN
// -instr.dir DIR, with test binaries built by go test -c (the mutant's with
// -overlay).
var (
	evBase    = flag.String("instr.base", "", "baseline test binary of TestEvidence (unset: skip it)")
	evMut     = flag.String("instr.mut", "", "mutant test binary of TestEvidence (unset: baseline only)")
	evBench   = flag.String("instr.bench", "", "-test.bench pattern selecting one benchmark")
	evDir     = flag.String("instr.dir", ".", "the package directory the binaries run in")
	evSamples = flag.Int("instr.samples", 10, "samples of each binary")
	evBudget  = flag.Uint64("instr.budget", DefaultBudget, "instructions of a sample's extra N iterations")
	evOne     = flag.Bool("instr.one", false, "after the first round, one-process samples (sampleOne) with the set-up of the first")
	evSeq     = flag.Bool("instr.seq", false, "a sample's two processes one after the other (Sampler.Sequential)")
	evPre     = flag.Bool("instr.pre", false, "after the samples, -instr.samples pre-counts (PreCount) of each binary against the baseline's samples")
)

// TestEvidence measures the spread of instruction counts per operation of
// a baseline (and a mutant), alternating, and the cost of a sample against
// the same two runs without valgrind.
func TestEvidence(t *testing.T) {
	if *evBase == "" {
		t.Skip("measures the evidence of docs/instructions.md when given -instr.base")
	}
	info := needValgrind(t)
	ctx := context.Background()
	s := &Sampler{Valgrind: info.Path, Sequential: *evSeq}
	base := Bench{Bin: *evBase, Dir: *evDir, Pattern: *evBench}
	n, perOp, err := s.Iters(ctx, base, *evBudget)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("N = %d (%.0f instructions/op at the probe)", n, perOp)
	sides := []Bench{base}
	if *evMut != "" {
		sides = append(sides, Bench{Bin: *evMut, Dir: *evDir, Pattern: *evBench})
	}
	vals := make([][]float64, len(sides))
	setUps := make([]float64, len(sides))
	var cost time.Duration
	for i := range *evSamples {
		for k, b := range sides {
			smp, err := evSample(ctx, s, b, n, *evOne && i > 0, setUps[k])
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				setUps[k] = setUpOf(smp)
			}
			vals[k] = append(vals[k], smp.PerOp)
			cost += smp.Elapsed
			t.Logf("sample %d %s: %.1f instructions/op (%d, %d) in %s", i, b.Bin, smp.PerOp, smp.Short, smp.Long, smp.Elapsed.Round(time.Millisecond))
		}
	}
	for k, b := range sides {
		t.Logf("%s: %s", b.Bin, spread(vals[k]))
	}
	if len(sides) == 2 {
		t.Logf("mutant/baseline: median %.4f, min(mutant)/max(baseline) %.4f",
			median(vals[1])/median(vals[0]), slices.Min(vals[1])/slices.Max(vals[0]))
	}
	if *evPre {
		pb, err := s.PreBaseline(ctx, base, PreIters(n))
		if err != nil {
			t.Fatal(err)
		}
		for k, b := range sides {
			evPreCounts(t, s, b, pb, median(vals[0]), median(vals[k]))
		}
	}
	native := nativeCost(t, base, n)
	perSample := cost / time.Duration(len(sides)**evSamples)
	t.Logf("cost of a sample: %s under valgrind, %s without (%.0fx)", perSample.Round(time.Millisecond), native.Round(time.Millisecond), float64(perSample)/float64(native))
}

// evSample is a sample of two processes, or with one a sample of one
// process less setUp.
func evSample(ctx context.Context, s *Sampler, b Bench, n int, one bool, setUp float64) (Sample, error) {
	if one {
		return s.sampleOne(ctx, b, n, setUp)
	}
	return s.Sample(ctx, b, n)
}

// spread describes xs: mean, median, range, coefficient of variation,
// max/min.
func spread(xs []float64) string {
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(sq / float64(len(xs)-1))
	return fmt.Sprintf("%d samples, mean %.1f, median %.1f, range %.1f to %.1f, CV %.3f%%, max/min %.4f",
		len(xs), mean, median(xs), slices.Min(xs), slices.Max(xs), 100*sd/mean, slices.Max(xs)/slices.Min(xs))
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

// evPreCounts logs -instr.samples pre-counts of b against the baseline's
// count pb and median, each as a ratio to b's own median.
func evPreCounts(t *testing.T, s *Sampler, b Bench, pb PreBase, baseMedian, own float64) {
	var ratios []float64
	for range *evSamples {
		p, err := s.PreCount(context.Background(), b, pb, baseMedian)
		if err != nil {
			t.Fatal(err)
		}
		ratios = append(ratios, p.PerOp/own)
		t.Logf("pre-count %s: %s, %.4f x its median, censor %v, in %s", b.Bin, p, p.PerOp/own, p.Censor, p.Elapsed.Round(time.Millisecond))
	}
	t.Logf("pre-counts of %s over its median: %s", b.Bin, spread(ratios))
}

// nativeCost is the wall time of b's two runs of a sample (N and 2N
// iterations) without valgrind, the median of three.
func nativeCost(t *testing.T, b Bench, n int) time.Duration {
	var ds []time.Duration
	for range 3 {
		start := time.Now()
		for _, k := range []int{n, 2 * n} {
			cmd := exec.Command(b.Bin, "-test.run=^$", "-test.bench="+b.Pattern, "-test.benchtime="+strconv.Itoa(k)+"x")
			cmd.Dir = b.Dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", b.Bin, err, out)
			}
		}
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	return ds[1]
}
