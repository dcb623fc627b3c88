package engine

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/score"
)

// wall is a benchmark's wall-time samples on a loaded machine (seconds);
// counts its instruction counts.
var (
	wall   = []float64{20.1e-3, 21.5e-3, 19.8e-3, 25.3e-3, 30.2e-3, 20.6e-3, 22.0e-3, 19.9e-3}
	counts = []float64{85237.6, 85306.1, 85130.9, 85380.6, 85250}
)

func TestSpreadOf(t *testing.T) {
	for _, tc := range []struct {
		name               string
		in                 []float64
		n                  int
		median, maxMin, cv float64
		warnings           []string
	}{
		{"wall", wall, 8, 0.02105, 30.2 / 19.8, 1.4826 * 1.05e-3 / 0.02105, nil},
		{"counts", counts, 5, 85250, 85380.6 / 85130.9, 1.4826 * 56.1 / 85250, nil},
		{"stall", []float64{100, 102, 98, 130, 101}, 5, 101, 130.0 / 98, 1.4826 / 101, nil},
		{"constant", []float64{7, 7, 7}, 3, 7, 1, 0, nil},
		{"two", []float64{1, 3}, 2, 2, 3, 1.4826 / 2, []string{"fewer than 3 samples: the spread is a guess"}},
		{"zero", []float64{0, 1, 2}, 3, 1, math.NaN(), 1.4826, []string{"a sample is not positive: no max/min"}},
		{"none", nil, 0, math.NaN(), math.NaN(), math.NaN(), []string{"no samples"}},
	} {
		got := spreadOf(tc.in)
		if got.N != tc.n || !same(got.Median, tc.median) || !same(got.MaxMin, tc.maxMin) || !same(got.CV, tc.cv) || !reflect.DeepEqual(got.Warnings, tc.warnings) {
			t.Errorf("%s: spreadOf = %+v, want N %d, median %g, max/min %g, CV %g, warnings %q", tc.name, got, tc.n, tc.median, tc.maxMin, tc.cv, tc.warnings)
		}
	}
}

// same reports whether a and b agree to 1e-12 relative, or are both NaN.
func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// TestCheckNoise (a need without a margin: the minimum effect matters): wall
// time with a robust CV of 7.4% detects 7.5% in 30
// samples at level 0.05/3, above the minimum effect of 1%: too noisy, and
// the advice is to count instructions; counts with a CV of 0.1% detect
// 0.094%. (The detectable ratios are the normal-theory formula of
// score.MinDetectable, computed independently.)
func TestCheckNoise(t *testing.T) {
	need := noiseNeed{Budget: 30, Level: 0.05 / 3, Test: score.KS, MinEffect: 1.01}
	res, advice := checkNoise([]benchSamples{{"BenchmarkWall", wall}, {"BenchmarkCounts", counts}, {"BenchmarkOne", []float64{5}}}, need, noiseWallTime)
	if len(res) != 3 {
		t.Fatalf("checkNoise returned %d results, want 3", len(res))
	}
	for i, want := range []struct {
		det   float64
		noisy bool
	}{{1.0752954007820177, true}, {1.0009377242354496, false}, {math.NaN(), false}} {
		if !sameTo(res[i].Detectable, want.det, 1e-9) || res[i].TooNoisy != want.noisy {
			t.Errorf("%s: Detectable %v, TooNoisy %v; want %v, %v", res[i].Name, res[i].Detectable, res[i].TooNoisy, want.det, want.noisy)
		}
	}
	if want := "noise: 1 of 3 benchmarks measuring undecided mutants cannot detect a slowdown of the minimum effect 1% in 30 samples (BenchmarkWall detects 7.53%): the machine is too noisy for wall time; -measure instructions counts instructions, which the load does not change"; advice != want {
		t.Errorf("advice =\n%q, want\n%q", advice, want)
	}
	_, advice = checkNoise([]benchSamples{{"BenchmarkPut", wall}}, need, noiseCounts)
	if want := "noise: 1 of 1 benchmarks measuring undecided mutants cannot detect a slowdown of the minimum effect 1% in 30 samples (BenchmarkPut detects 7.53%): their instruction counts vary between processes (a map's hash seed, random inputs); raise -max-samples or the minimum effect"; advice != want {
		t.Errorf("advice when counting =\n%q, want\n%q", advice, want)
	}
	_, advice = checkNoise([]benchSamples{{"BenchmarkSleep", wall}}, need, noiseWallTimeBesideCounts)
	if want := "noise: 1 of 1 benchmarks measuring undecided mutants cannot detect a slowdown of the minimum effect 1% in 30 samples (BenchmarkSleep detects 7.53%): the machine is too noisy for the mutants measured on wall time (their cost is waiting or contention, which a count does not see); measure them on a quieter machine"; advice != want {
		t.Errorf("advice beside counts =\n%q, want\n%q", advice, want)
	}
	if _, advice := checkNoise([]benchSamples{{"BenchmarkCounts", counts}}, need, noiseWallTime); advice != "" {
		t.Errorf("advice for quiet counts = %q, want none", advice)
	}
	five := []benchSamples{{"A", wall}, {"B", wall}, {"C", wall}, {"D", wall}, {"E", wall}}
	if _, advice := checkNoise(five, need, noiseWallTime); !strings.HasPrefix(advice, "noise: 5 of 5 benchmarks measuring undecided mutants cannot detect a slowdown of the minimum effect 1% in 30 samples (A detects 7.53%, B detects 7.53%, C detects 7.53%, 2 more): the machine") {
		t.Errorf("advice for five = %q", advice)
	}
}

// sameTo reports whether a and b agree to tol relative, or are both NaN.
func sameTo(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// quiet is a benchmark's wall-time samples on a quiet machine: a robust
// CV of 1.8%, which detects 1.8% in 30 samples.
var quiet = []float64{20.0e-3, 20.3e-3, 19.8e-3, 20.5e-3, 20.1e-3, 19.7e-3, 20.6e-3, 20.2e-3}

// TestCheckNoiseMargin: the slowdown that matters is the rule's margin, not
// its minimum effect. A quiet machine that detects 1.8%, above the 1%
// minimum effect but well below the 5% margin, gets no advice; the loaded
// one (7.5%) is still too noisy, and the advice names the margin.
func TestCheckNoiseMargin(t *testing.T) {
	need := noiseNeed{Budget: 30, Level: 0.05 / 3, Test: score.KS, MinEffect: 1.01, Margin: 1.05}
	if got := need.matters(); got != 1.05 {
		t.Errorf("matters = %v, want the margin 1.05", got)
	}
	res, advice := checkNoise([]benchSamples{{"BenchmarkQuiet", quiet}}, need, noiseWallTime)
	if !sameTo(res[0].Detectable, 1.0177463236368571, 1e-9) || res[0].TooNoisy || advice != "" {
		t.Errorf("quiet machine: Detectable %v, TooNoisy %v, advice %q; want 1.0177, false, none", res[0].Detectable, res[0].TooNoisy, advice)
	}
	_, advice = checkNoise([]benchSamples{{"BenchmarkQuiet", quiet}, {"BenchmarkWall", wall}}, need, noiseWallTime)
	if want := "noise: 1 of 2 benchmarks measuring undecided mutants cannot detect a slowdown of the margin 5% in 30 samples (BenchmarkWall detects 7.53%): the machine is too noisy for wall time; -measure instructions counts instructions, which the load does not change"; advice != want {
		t.Errorf("advice =\n%q, want\n%q", advice, want)
	}
	_, advice = checkNoise([]benchSamples{{"BenchmarkPut", wall}}, need, noiseCounts)
	if !strings.HasSuffix(advice, "raise -max-samples or -margin") {
		t.Errorf("advice when counting = %q, want it to end with raising -margin", advice)
	}
	off := need
	off.Margin = score.NoMargin
	if _, advice := checkNoise([]benchSamples{{"BenchmarkQuiet", quiet}}, off, noiseWallTime); !strings.HasPrefix(advice, "noise: 1 of 1 benchmarks measuring undecided mutants cannot detect a slowdown of the minimum effect 1% in 30 samples (BenchmarkQuiet detects 1.77%)") {
		t.Errorf("advice with the margin off = %q, want the minimum effect", advice)
	}
}
