package engine

import (
	"testing"
	"time"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// TestMeasurementDefaults: the settings left at 0 get their defaults, the
// others are kept.
func TestMeasurementDefaults(t *testing.T) {
	got := Measurement{}.WithDefaults()
	if got.SampleTime != DefaultSampleTime || got.BenchTimeout != DefaultBenchTimeout || got.Jobs != 1 {
		t.Errorf("defaults: %v %v %d", got.SampleTime, got.BenchTimeout, got.Jobs)
	}
	set := Measurement{SampleTime: time.Second, BenchTimeout: time.Minute, Jobs: 3}
	if got := set.WithDefaults(); got.SampleTime != time.Second || got.BenchTimeout != time.Minute || got.Jobs != 3 {
		t.Errorf("set values changed: %v %v %d", got.SampleTime, got.BenchTimeout, got.Jobs)
	}
}

// TestOnCounts: a rule deciding on counts alone takes the counts' minimum
// effect when there is one; without counting it is unchanged.
func TestOnCounts(t *testing.T) {
	rule := score.Rule{MinEffect: 1.05}
	for _, tc := range []struct {
		c    *Counting
		want float64
	}{
		{nil, 1.05},
		{&Counting{}, 1.05},
		{&Counting{MinEffect: 1.005}, 1.005},
	} {
		if got := tc.c.OnCounts(rule).MinEffect; got != tc.want {
			t.Errorf("%+v: MinEffect %v, want %v", tc.c, got, tc.want)
		}
	}
}

// TestRecordSettings: what a measurement decides by goes into the
// settings; the caller's fields are kept; a sample time only without
// -benchtime; -measure instructions with the counts' minimum effect.
func TestRecordSettings(t *testing.T) {
	m := Measurement{Rule: score.Rule{Alpha: 0.01}, Tags: []string{"t"}, SampleTime: 20 * time.Millisecond,
		CensorFactor: 3, Seed: 7, CPU: []int{1, 4}, Counting: &Counting{MinEffect: 1.005}}
	s := results.Settings{Patterns: []string{"./..."}, Opt: "on"}
	m.RecordSettings(&s)
	if s.Alpha != 0.01 || len(s.Tags) != 1 || s.SampleTime != "20ms" || s.Benchtime != "" || s.Censor != 3 || s.Seed != 7 ||
		len(s.CPU) != 2 || s.Measure != "instructions" || s.CountMinEffect != 1.005 || s.Opt != "on" || len(s.Patterns) != 1 {
		t.Errorf("recorded %+v", s)
	}
	m.Benchtime, m.Counting = "100x", nil
	m.RecordSettings(&s)
	if s.SampleTime != "" || s.Benchtime != "100x" || s.Measure != "" || s.CountMinEffect != 0 {
		t.Errorf("with -benchtime, on time: %+v", s)
	}
}
