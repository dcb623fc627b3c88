package detect

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/score"
)

// z999 is the normal quantile of a two-sided 99.9% interval: the test's
// check of a share against its true value fails by chance 0.1% of runs.
const z999 = 3.2905267314919255

func TestComputeShares(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	m := computeTestdata(t, "shares", "work.go", Options{
		SampleTime: 20 * time.Millisecond, NoiseSamples: 5, ProfileTime: time.Second,
		Budget: 30, Alpha: 0.05, Test: score.KS, Timeout: 2 * time.Minute,
		Jobs: 2, // two coverage runs at once
	})
	rows := map[string]Row{}
	for _, r := range m.Functions {
		rows[r.Package+"."+r.Function] = r
	}
	const p = "example.com/shares."
	for fn, want := range map[string]Status{"Unused": Never, "Prepare": SetUp, "Half": Timed, "Small": Timed, "Rest": Timed, "spin": Timed} {
		if got := rows[p+fn].Status; got != want {
			t.Errorf("%s: status %q, want %q", fn, got, want)
		}
	}
	for _, fn := range []string{"Unused", "Prepare"} {
		if rows[p+fn].Factor != nil {
			t.Errorf("%s: factor %v, want null", fn, *rows[p+fn].Factor)
		}
	}
	if len(m.Benchmarks) != 1 || m.Benchmarks[0].Name != p+"BenchmarkWork" || len(m.Benchmarks[0].Noise) < 50 {
		// 50 rounds of 20ms, in two processes.
		t.Fatalf("benchmarks %+v: want BenchmarkWork with at least 50 noise samples", m.Benchmarks)
	}
	b := m.Benchmarks[0]
	// The coverage runs take about 50ms of the instrumented binary, whose
	// atomic counter in spin's loop makes an iteration several times
	// slower than the plain binary's: their b.N must come from the
	// coverage binary's own calibration, not the plain binary's. The two
	// calibrations run side by side (Jobs 2), but a burst of load can
	// still stretch one more than the other (at a load average of 3 the
	// plain binary once measured 50891 ns/op against the coverage
	// binary's 82645), so the check is on which time was used, not on
	// how far apart the two came out.
	if !(b.coverNsPerOp > 0) || b.CoverIterations != coverIters(b.coverNsPerOp) {
		t.Errorf("coverage runs of %d iterations, want %d from the coverage binary's %.0f ns/op (the plain binary's: %.0f ns/op)",
			b.CoverIterations, coverIters(b.coverNsPerOp), b.coverNsPerOp, float64(20*time.Millisecond)/float64(b.Iterations))
	}
	// The profile's samples are CPU time: about 250 of the 1 s of rounds
	// on an idle machine whose timers fire at 250 Hz (TestHzOverlay checks
	// the rate), where a loaded one gives the benchmark a fraction of a CPU
	// (14 samples at a load average of 30 on 2 cores). The shares and
	// factors below are checked against their intervals, which need a
	// profile of 20 samples at least to tell Half from Small; with fewer,
	// only what does not depend on the load is.
	if b.Shares.Total < 20 {
		t.Logf("%d timed samples (the load): the shares and factors are not checked", b.Shares.Total)
		return
	}
	half, small := rows[p+"Half"], rows[p+"Small"]
	if half.Factor == nil || small.Factor == nil || !(*half.Factor < *small.Factor) {
		t.Fatalf("factors Half %v, Small %v: want Half's smaller", half.Factor, small.Factor)
	}
	for _, c := range []struct {
		row   Row
		share float64 // the work's share: 5000 and 100 of 10000 units
	}{{half, 0.5}, {small, 0.01}} {
		k := int64(math.Round(c.row.Share * float64(c.row.Samples)))
		lo, hi := wilsonZ(k, c.row.Samples, z999)
		if !(lo <= c.share && c.share <= hi) {
			t.Errorf("%s: share %.4f of %d samples, 99.9%% interval [%.4f, %.4f] misses %.2f", c.row.Function, c.row.Share, c.row.Samples, lo, hi, c.share)
		}
		// The factor's interval is the share's, mapped: it holds the
		// factor of the true share exactly when the share's does.
		d := m.Benchmarks[0].Detectable
		if f, in := factor(d, c.share), c.share >= c.row.ShareLow && c.share <= c.row.ShareHigh; in != (c.row.FactorLow <= f && (c.row.FactorHigh == 0 || f <= c.row.FactorHigh)) {
			t.Errorf("%s: factor %.3f of the true share: interval [%.3f, %.3f] disagrees with the share's [%.4f, %.4f]", c.row.Function, f, c.row.FactorLow, c.row.FactorHigh, c.row.ShareLow, c.row.ShareHigh)
		}
	}
}

// TestComputeSkipsFailing: a benchmark that fails on the baseline is left
// out with its reason, and the map goes on.
func TestComputeSkipsFailing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	m := computeTestdata(t, "failing", "f.go", Options{
		SampleTime: 10 * time.Millisecond, NoiseSamples: 3, ProfileTime: 100 * time.Millisecond,
		Budget: 30, Alpha: 0.05, Test: score.KS, Timeout: time.Minute,
	})
	if len(m.Skipped) != 1 || m.Skipped[0].Benchmark != "example.com/failing.BenchmarkBad" {
		t.Errorf("skipped %+v, want BenchmarkBad", m.Skipped)
	}
	got := map[string]Status{}
	for _, r := range m.Functions {
		got[r.Function] = r.Status
	}
	if got["Good"] != Timed || got["Bad"] != Never {
		t.Errorf("statuses %v: want Good timed, Bad never (its only benchmark failed)", got)
	}
}

// TestComputeRecalibrates: a benchmark whose first iteration takes longer
// than the calibration round gets a b.N of a handful from it; its first
// profiled rounds, far shorter than -sample-time, set b.N again, and the
// noise samples are rounds of about -sample-time.
func TestComputeRecalibrates(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	sample := 20 * time.Millisecond
	m := computeTestdata(t, "slowstart", "work.go", Options{
		SampleTime: sample, NoiseSamples: 3, ProfileTime: 60 * time.Millisecond,
		Budget: 30, Alpha: 0.05, Test: score.KS, Timeout: time.Minute,
	})
	if len(m.Benchmarks) != 1 {
		t.Fatalf("benchmarks %+v, want BenchmarkSum", m.Benchmarks)
	}
	b := m.Benchmarks[0]
	if tooShort(b.Noise, b.Iterations, sample) || b.Iterations < 100 {
		t.Errorf("rounds of b.N=%d at a median %.0f ns/op: want about 20ms each", b.Iterations, median(b.Noise))
	}
}

// computeTestdata maps the one-package module testdata/name, whose code
// is in file, with o's settings.
func computeTestdata(t *testing.T, name, file string, o Options) *Map {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	o.Pkgs = []*mutate.Package{{ImportPath: "example.com/" + name, Name: name, Dir: dir, Files: []string{filepath.Join(dir, file)}}}
	m, err := Compute(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
