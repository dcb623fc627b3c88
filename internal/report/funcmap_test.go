package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/results"
)

func ptr(x float64) *float64 { return &x }

// mapFixture is the fixture with the machine's noise, a detectability map
// and notes on two changed functions, all with fixed values.
func mapFixture(t testing.TB) *results.Report {
	rep := fixture(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rep.Noise = &results.Noise{
		Measures: "time",
		Machine: results.Machine{
			Start: results.Snapshot{Time: at, CPUs: 2, Load: [3]float64{3.88, 3.5, 3.1}, LoadKnown: true, Steal: 1000, Total: 200000, StealKnown: true},
			End:   results.Snapshot{Time: at.Add(time.Hour), CPUs: 2, Load: [3]float64{12.26, 9, 7}, LoadKnown: true, Steal: 1720, Total: 920000, StealKnown: true},
		},
		Benchmarks: []results.BenchNoise{
			{Name: "BenchmarkLower", Level: results.Opt, Metric: "sec/op", N: 10, Median: 2.1e-6, MaxMin: ptr(1.08), CV: ptr(0.012), Detectable: ptr(1.006)},
			{Name: "BenchmarkIndex", Level: results.Opt, Metric: "sec/op", N: 10, Median: 8.4e-7, MaxMin: ptr(2.6), CV: ptr(0.31), Detectable: ptr(1.42), TooNoisy: true},
			{Name: "BenchmarkJoin", Level: results.Opt, Metric: "sec/op", N: 1, Median: 5e-6, Warnings: []string{"fewer than 3 samples: the spread is a guess"}},
		},
		Advice: []string{"noise: 1 of 3 benchmarks cannot detect a slowdown of the minimum effect 1% in 30 samples (BenchmarkIndex detects 42%): the machine is too noisy for wall time; -measure instructions counts instructions, which the load does not change"},
	}
	// Each verdict at opt says which metric it rests on (-measure instructions).
	rep.Settings.Measure = "instructions"
	for _, m := range rep.Mutants {
		if r := m.Results[results.Opt]; r != nil {
			r.Metric, r.MetricReason = "instructions/op", "work: an instruction count sees it"
		}
	}
	rep.Settings.FunctionMap, rep.Settings.WarnFactor, rep.Settings.ChangedSince = true, 2, "origin/main"
	rep.FunctionSensitivity = []results.FunctionSensitivity{
		{Package: "example.com/demo/textutil", Function: "unused", Status: "never"},
		{Package: "example.com/demo/textutil", Function: "prepare", Status: "set-up only"},
		{Package: "example.com/demo/textutil", Function: "Index", Status: "timed", Factor: ptr(35.9), FactorLow: 12.5, FactorHigh: 180,
			Benchmark: "example.com/demo/textutil.BenchmarkIndex", Share: 0.0118, ShareLow: 0.0023, ShareHigh: 0.034, FlatShare: 0.01, Samples: 254},
		{Package: "example.com/demo/textutil", Function: "Title", Status: "timed", Factor: ptr(2.97), AtLeast: true, FactorLow: 2.97,
			Benchmark: "example.com/demo/textutil.BenchmarkJoin", ShareHigh: 0.079, Samples: 45},
		{Package: "example.com/demo/textutil", Function: "(*Builder).Lower", Status: "timed", Factor: ptr(1.08), FactorLow: 1.07, FactorHigh: 1.1,
			Benchmark: "example.com/demo/other.BenchmarkLower", Share: 0.78, ShareLow: 0.72, ShareHigh: 0.83, FlatShare: 0.5, Samples: 254},
	}
	rep.FunctionMap = &results.FunctionMap{Benchmarks: 3, BuildSeconds: 3.4, CoverageSeconds: 1.4, CalibrateSeconds: 1, ProfileSeconds: 6.3,
		Skipped: []string{"example.com/demo/textutil.BenchmarkSlow: signal: killed"}, Counted: []string{"example.com/demo/other.BenchmarkLower"}}
	rep.ChangedFunctions = []results.FunctionNote{
		{Function: "example.com/demo/textutil.Index", File: "textutil/index.go", Line: 12, Status: "timed", Factor: ptr(35.9),
			Benchmark: "example.com/demo/textutil.BenchmarkIndex", Share: 0.0118, Warning: true,
			Text: "example.com/demo/textutil.Index: only a slowdown of x35.9, above the warning threshold x2, is caught, by textutil.BenchmarkIndex (1.2% of its time)"},
		{Function: "example.com/demo/textutil.(*Builder).Lower", File: "textutil/lower.go", Line: 7, Status: "timed", Factor: ptr(1.08),
			Benchmark: "example.com/demo/other.BenchmarkLower", Share: 0.78,
			Text: "example.com/demo/textutil.(*Builder).Lower: a slowdown of x1.08 is caught by other.BenchmarkLower (78.0% of its time)"},
	}
	return rep
}

// TestFunctionMapGolden: the noise header, the sensitivity by function
// (worst protected first) and the changed functions' notes, in the text
// and Markdown reports.
func TestFunctionMapGolden(t *testing.T) {
	var txt, md bytes.Buffer
	if err := Text(&txt, mapFixture(t), Options{Dir: "perfmut-out"}); err != nil {
		t.Fatal(err)
	}
	golden(t, "report-map.txt", txt.Bytes())
	if err := writeMarkdown(&md, mapFixture(t), Options{Dir: "perfmut-out"}); err != nil {
		t.Fatal(err)
	}
	golden(t, "report-map.md", md.Bytes())
}

// TestFunctionMapHTML: report.html has the noise lines and table, the
// changed functions, the sensitivity plot and every row of the map, worst
// protected first.
func TestFunctionMapHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := writeHTML(&buf, mapFixture(t), Options{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		"machine: load 3.88 at the start, 12.26 at the end (1-minute averages, 2 CPUs); CPU steal 0.1% from start to end; measuring time",
		"<td>BenchmarkIndex</td><td>opt</td><td>sec/op</td><td>10</td><td>8.4e-07</td><td>31.0%</td><td>2.6</td><td>×1.420 <span class=\"rej\">too noisy</span></td>",
		"Changed functions since <code>origin/main</code>",
		"<td><code>example.com/demo/textutil.Index</code></td><td><span class=\"rej\">warning</span></td><td>only a slowdown of x35.9",
		"<h2>Sensitivity by function</h2>",
		`<span class="q">on instructions/op (work: an instruction count sees it)</span></h3>`,
		"Smallest slowdown a benchmark notices, by function",
		"warning above x2",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	order := []string{"textutil.unused</code>", "textutil.prepare</code>", "textutil.Index</code></td><td>x35.9", "textutil.Title</code>", "textutil.(*Builder).Lower</code></td><td>x1.08"}
	last := -1
	for _, s := range order {
		i := strings.Index(page, s)
		if i < 0 || i < last {
			t.Fatalf("report.html: %q missing or out of the worst-first order", s)
		}
		last = i
	}
}

// TestOldReportHasNoMapSections: a report.json written before the map and
// the noise block renders none of their sections.
func TestOldReportHasNoMapSections(t *testing.T) {
	for name, render := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return Text(b, fixture(t), Options{}) },
		"markdown": func(b *bytes.Buffer) error { return writeMarkdown(b, fixture(t), Options{}) },
		"html":     func(b *bytes.Buffer) error { return writeHTML(b, fixture(t), Options{}) },
		"sarif":    func(b *bytes.Buffer) error { return writeSARIF(b, fixture(t), Options{}) },
	} {
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"Sensitivity by function", "machine:", "Changed functions", functionRule} {
			if strings.Contains(buf.String(), s) {
				t.Errorf("%s of a report without a map has %q", name, s)
			}
		}
	}
}

// TestSARIFChangedFunctions: one result per changed function, at its
// declaration, a warning above -warn-factor and a note below it, with
// the factor and the benchmark.
func TestSARIFChangedFunctions(t *testing.T) {
	var buf bytes.Buffer
	if err := writeSARIF(&buf, mapFixture(t), Options{}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	var got []sarifResult
	for _, r := range run.Results {
		if r.RuleID == functionRule {
			got = append(got, r)
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d changed-function results, want 2", len(got))
	}
	w, n := got[0], got[1]
	if w.Level != "warning" || w.Locations[0].Physical.Artifact.URI != "textutil/index.go" || w.Locations[0].Physical.Region.StartLine != 12 ||
		w.Properties["factor"] != 35.9 || w.Properties["benchmark"] != "example.com/demo/textutil.BenchmarkIndex" {
		t.Errorf("Index's result = %+v", w)
	}
	if n.Level != "note" || !strings.Contains(n.Message.Text, "Changed since origin/main: example.com/demo/textutil.(*Builder).Lower: a slowdown of x1.08 is caught by other.BenchmarkLower") {
		t.Errorf("Lower's result = %+v", n)
	}
	if rule := run.Tool.Driver.Rules[w.RuleIndex]; rule.ID != functionRule {
		t.Errorf("rule %d is %q, want %q", w.RuleIndex, rule.ID, functionRule)
	}
}

// TestWritePlanMap: -plan says what bounds the map: builds as the
// baseline's, and per benchmark a calibration in each binary, two coverage
// runs and a profiled run with up to 4 restarts of a quarter of it, at
// most 8 x (2 x 5ms + 150ms + 10 x 20ms + 4 x 10 x 5ms) = 4.48s.
func TestWritePlanMap(t *testing.T) {
	p := &results.Plan{Module: "example.com/m", Mutants: 1, Levels: []string{results.Opt}, Jobs: 1,
		ByLevel: map[string]results.PlanLevel{results.Opt: {}}, FunctionMap: results.MapBound(8, 2, 10, 20*time.Millisecond)}
	var buf bytes.Buffer
	if err := WritePlan(&buf, p); err != nil {
		t.Fatal(err)
	}
	want := `then the function sensitivity map (-function-map=false leaves it out), bounded: two builds of the test binaries of 2 packages (as the baseline's),
  and per benchmark (8 in the source) a calibration in each binary, two coverage runs of about 50 and 100ms of the coverage binary
  and a profiled run of 10 rounds of 20ms (two processes of half the rounds): at most 4.5s of benchmark iterations
`
	if !strings.Contains(buf.String(), want) {
		t.Errorf("WritePlan =\n%s\nwant it to hold\n%s", buf.String(), want)
	}
}

// TestMetricOnlyWhenCounting: a campaign measuring wall time only does
// not repeat "sec/op (-measure time)" on every verdict; one counting
// instructions says each verdict's metric.
func TestMetricOnlyWhenCounting(t *testing.T) {
	for _, measure := range []string{"", "time", "instructions"} {
		rep := fixture(t)
		rep.Settings.Measure = measure
		for _, m := range rep.Mutants {
			for _, r := range m.Results {
				r.Metric, r.MetricReason = "sec/op", "-measure time"
			}
		}
		var buf bytes.Buffer
		if err := Text(&buf, rep, Options{}); err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Contains(buf.String(), "metric opt: sec/op (-measure time)"), measure == "instructions"; got != want {
			t.Errorf("-measure %q: metric line shown %v, want %v", measure, got, want)
		}
	}
}
