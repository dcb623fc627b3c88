package score

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestCalibrated(t *testing.T) {
	for _, tt := range []struct {
		r    Rule
		want bool
	}{
		{Rule{}, true},
		{Rule{Test: MWU}, true},
		{Rule{Alpha: 0.01}, true},
		{Rule{Alpha: 0.1, FutilityPower: NoFutility}, true},
		{Rule{Alpha: 0.02}, false},           // no table: union bound
		{Rule{MaxSamples: 20}, false},        // other looks
		{Rule{MinSamples: 30}, false},        // a fixed design
		{Rule{FutilityPower: 0.2}, true},     // the non-binding levels
		{Rule{Correction: Bonferroni}, true}, // the same levels
	} {
		if got := tt.r.calibrated(); got != tt.want {
			t.Errorf("%+v.calibrated() = %v, want %v", tt.r, got, tt.want)
		}
	}
	// Uncalibrated levels are the union-bound shares over k.
	r := Rule{Alpha: 0.02}
	for i, l := range r.familyLevels(4) {
		if want := r.levels()[i] / 4; !close(l, want) {
			t.Errorf("Levels(4)[%d] = %v, want %v", i, l, want)
		}
	}
	// Every table is calibrated without futility (the stop does not
	// bind), and no level exceeds the test's share of alpha; a single look
	// spends all of it.
	for _, tab := range calibratedLevels {
		if tab.Futility != 0 {
			t.Errorf("%s alpha %v: a table calibrated for a binding futility stop %v", tab.Test, tab.Alpha, tab.Futility)
		}
		for k, row := range tab.PerTest {
			for i, l := range row {
				if l > tab.Alpha/float64(k+1)*(1+1e-6) || l < 0 {
					t.Errorf("%s alpha %v K=%d look %d: level %v above alpha/K", tab.Test, tab.Alpha, k+1, i, l)
				}
			}
		}
	}
	if l := (Rule{MinSamples: 30}).familyLevels(1); len(l) != 1 || l[0] != 0.05 {
		t.Errorf("fixed design levels %v, want [0.05]", l)
	}
}

// spend simulates campaigns of k independent sec/op tests with
// continuous noise and no difference under r, calling the rule at its
// looks, and returns the false-kill rate.
func spend(r Rule, k, campaigns int, seed uint64) float64 {
	return spendWith(r, k, campaigns, seed, func(rng *rand.Rand) float64 { return math.Exp(0.05 * rng.NormFloat64()) })
}

// spendWith is spend with the samples drawn by draw.
func spendWith(r Rule, k, campaigns int, seed uint64, draw func(*rand.Rand) float64) float64 {
	looks := r.Looks()
	kills := 0
	rng := rand.New(rand.NewPCG(seed, 1))
	for range campaigns {
		samples := make([]Sample, k)
		for i := range samples {
			samples[i] = Sample{Benchmark: string(rune('A' + i)), Metric: SecPerOp}
		}
		for _, n := range looks {
			for i := range samples {
				for len(samples[i].Baseline) < n {
					samples[i].Baseline = append(samples[i].Baseline, draw(rng))
					samples[i].Mutant = append(samples[i].Mutant, draw(rng))
				}
			}
			if v := r.decide(samples, false); v.Decision != Continue {
				if v.Decision == Kill {
					kills++
				}
				break
			}
		}
	}
	return float64(kills) / float64(campaigns)
}

// TestCalibratedSpend checks that the calibrated rule spends alpha: the
// simulated false-kill rate of one test under no difference, with the
// default futility stop and without, lies between 0.8 alpha and alpha, to
// two standard errors of the simulation. The union-bound shares of the
// rule before calibration gave 1.2 to 2%, well below the lower bound.
func TestCalibratedSpend(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	for _, tt := range []struct {
		r         Rule
		campaigns int
		low       float64 // lower bound on the rate, as a share of alpha
	}{
		{Rule{MinEffect: 1}, 20000, 0.8},
		{Rule{MinEffect: 1, FutilityPower: NoFutility}, 10000, 0.8},
		{Rule{MinEffect: 1, Test: MWU}, 4000, 0.8},
	} {
		r := tt.r.WithDefaults()
		rate := spend(r, 1, tt.campaigns, 9)
		se := math.Sqrt(r.Alpha * (1 - r.Alpha) / float64(tt.campaigns))
		t.Logf("%s futility %v: false-kill rate %.4f over %d campaigns (se %.4f)", r.Test, r.FutilityPower, rate, tt.campaigns, se)
		if rate < tt.low*r.Alpha-2*se || rate > r.Alpha+2*se {
			t.Errorf("%s futility %v: false-kill rate %.4f, want within [%v alpha, alpha] +- 2 se = [%.4f, %.4f]", r.Test, r.FutilityPower, rate, tt.low, tt.low*r.Alpha-2*se, r.Alpha+2*se)
		}
	}
}

// TestCalibrationTable checks that every rule uses the levels calibrated
// without futility, whatever its futility bound: the stop does not bind.
func TestCalibrationTable(t *testing.T) {
	for _, r := range []Rule{{}, {FutilityPower: NoFutility}, {FutilityPower: 0.2}, {Test: MWU}} {
		tab := r.WithDefaults().calibration()
		if tab == nil || tab.Futility != 0 {
			t.Errorf("%+v: table %+v, want the one calibrated without futility", r, tab)
		}
	}
}
