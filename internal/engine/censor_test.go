package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/score"
)

// TestCensorSlack: the slack is 3 x the baseline samples' spread, between
// 50 ms and 100 ms; the cap adds it to 3 x the slowest baseline sample.
func TestCensorSlack(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct{ fastest, slowest, want time.Duration }{
		{30 * ms, 31 * ms, 50 * ms},
		{30 * ms, 50 * ms, 60 * ms},
		{30 * ms, 90 * ms, 100 * ms},
	} {
		if got := censorSlack(tc.fastest, tc.slowest); got != tc.want {
			t.Errorf("censorSlack(%s, %s) = %s, want %s", tc.fastest, tc.slowest, got, tc.want)
		}
	}
	m := Measurement{CensorFactor: 3}
	it := BenchIters{N: 100, Wall: 40 * ms, Slack: 30 * ms}
	if got := m.CensorCap(it, 50*ms); got != 180*ms {
		t.Errorf("cap with slowest 50ms = %s, want 180ms", got)
	}
	if got := m.CensorCap(BenchIters{N: 100, Wall: 40 * ms}, 0); got != 220*ms {
		t.Errorf("cap without a derived slack = %s, want 220ms (100ms slack)", got)
	}
	if got := m.CensorCap(BenchIters{Wall: 40 * ms}, 0); got != 0 {
		t.Errorf("time-based cap = %s, want none", got)
	}
}

// censorSeries returns a measurement of one benchmark whose metrics are
// the default ones and p99.95-ns/op, with no rounds yet, and the
// benchmark.
func censorSeries() (*measurement, Benchmark) {
	b := Benchmark{Pkg: "example.com/demo/kv", Name: "BenchmarkSetParallel"}
	return &measurement{
		metric: func(u string) bool { return DefaultMetric(u) || u == "p99.95-ns/op" },
		names:  map[Benchmark]string{b: b.Name},
		series: map[Benchmark]*series{b: {samples: map[string]*score.Sample{}, censored: map[string][]int{}}},
	}, b
}

// censorRound returns round i's values of both sides: sec/op the same
// noise on both (no shift), constant B/op and allocs/op, and p99.95-ns/op
// at base on the baseline and mut on the mutant (plus i); a censored round
// has the mutant's sec/op only.
func censorRound(i int, base, mut float64, censored bool) [2]map[string]float64 {
	t := 1e-6 * (1 + 0.01*float64((i*7)%11))
	vals := [2]map[string]float64{
		{"sec/op": t, "B/op": 64, "allocs/op": 1, "p99.95-ns/op": base + float64(i)},
		{"sec/op": t * (1 + 0.001*float64(i%2*2-1)), "B/op": 64, "allocs/op": 1, "p99.95-ns/op": mut + float64(i)},
	}
	if censored {
		vals[1] = map[string]float64{"sec/op": 3 * t}
	}
	return vals
}

// TestCensoredRoundKeepsMetrics: a censored round has only sec/op, and a
// custom metric that separates completely on its other rounds still kills
// at the look the rounds reach: at 10 rounds, on its 9 values each, with
// p = 1/C(18, 9). (It was left out of the decision for the rest of the
// mutant, which then survived on sec/op alone.)
func TestCensoredRoundKeepsMetrics(t *testing.T) {
	ms, b := censorSeries()
	rule := score.Rule{Seed: 1}.WithDefaults() // looks at 5, 10, 20, 30 rounds
	var v score.Verdict
	for i := 0; i < rule.MaxSamples && v.Decision != score.Kill; i++ {
		ms.record(b, censorRound(i, 1000, 5000, i == 2), i == 2)
		if slices.Contains(rule.Looks(), i+1) {
			v = rule.Decide(ms.forRule([]Benchmark{b}))
		}
	}
	if v.Decision != score.Kill || v.Look != 2 {
		t.Fatalf("decision %s at look %d (%+v), want kill at look 2 (10 rounds)", v.Decision, v.Look, v.Tests)
	}
	var got []string
	for _, tr := range v.Tests {
		got = append(got, fmt.Sprintf("%s n=%d/%d p=%.6g padj=%.6g reject=%v excluded=%v", tr.Metric, tr.NBaseline, tr.NMutant, tr.P, tr.PAdj, tr.Reject, tr.Excluded))
	}
	want := []string{
		"sec/op n=10/10 p=0.681818 padj=0.681818 reject=false excluded=false",
		"B/op n=9/9 p=1 padj=1 reject=false excluded=true",
		"allocs/op n=9/9 p=1 padj=1 reject=false excluded=true",
		fmt.Sprintf("p99.95-ns/op n=9/9 p=%.6g padj=%.6g reject=true excluded=false", 1.0/48620, 2.0/48620),
	}
	if !slices.Equal(got, want) {
		t.Errorf("tests:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tr := v.Tests[3]; tr.P != 1.0/48620 || !slices.Equal(tr.Warnings, []string{"no value in 1 of 10 rounds: tested on the values of the others"}) {
		t.Errorf("p99.95-ns/op: p = %v (want 1/C(18, 9) = %v), warnings %q", tr.P, 1.0/48620, tr.Warnings)
	}
}

// TestCensoredRoundLooksOnce: with censored rounds (the first and the
// 13th) the rule, asked after every round, takes each look once, at its
// count of rounds (5, 10, 20, 30), on every metric: a metric short of a
// round neither holds a look back nor makes it come again.
func TestCensoredRoundLooksOnce(t *testing.T) {
	ms, b := censorSeries()
	rule := score.Rule{Seed: 1, FutilityPower: score.NoFutility}.WithDefaults()
	var looks []string
	for i := range rule.MaxSamples {
		cens := i == 0 || i == 12
		ms.record(b, censorRound(i, 1000, 1000.5, cens), cens)
		v := rule.Decide(ms.forRule([]Benchmark{b}))
		if v.Look > 0 {
			looks = append(looks, fmt.Sprintf("look %d at %d rounds: %d tests", v.Look, i+1, len(v.Tests)))
		}
		if v.Decision != score.Continue && i+1 < rule.MaxSamples {
			t.Fatalf("round %d: %s, want continue", i+1, v.Decision)
		}
	}
	want := []string{"look 1 at 5 rounds: 4 tests", "look 2 at 10 rounds: 4 tests", "look 3 at 20 rounds: 4 tests", "look 4 at 30 rounds: 4 tests"}
	if !slices.Equal(looks, want) {
		t.Errorf("looks %q, want %q", looks, want)
	}
	if m := ms.series[b].samples["p99.95-ns/op"]; len(m.Baseline) != 28 {
		t.Errorf("p99.95-ns/op: %d values, want 28 of 30 rounds", len(m.Baseline))
	}
}
