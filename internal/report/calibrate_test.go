package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

func TestTallyAndWriteCalibration(t *testing.T) {
	rep := &results.Report{Module: "example.com/m", Settings: results.Settings{RuleSettings: results.RuleSettings{Rule: score.Rule{Alpha: 0.05, Correction: score.Holm, MaxSamples: 30}}, SampleTime: "20ms", Censor: 3}}
	add := func(kind string, statuses ...score.Status) {
		for _, s := range statuses {
			m := results.Mutant{Results: map[string]*results.LevelResult{results.Opt: {Status: s}}}
			m.Operator = kind
			rep.Mutants = append(rep.Mutants, m)
		}
	}
	self := make([]score.Status, 40)
	null := make([]score.Status, 40)
	for i := range self {
		self[i], null[i] = score.Survived, score.Survived
	}
	self[3] = score.Killed
	self[5] = score.Undecided // measured, not killed: a trial
	for i := 0; i < 8; i++ {
		null[i] = score.Killed
	}
	null[39] = score.NoCoverage
	add(results.TrialSelf, self...)
	add(results.TrialNull, null...)
	rows := TallyCalibration(rep, []string{results.Opt}, []string{results.TrialSelf, results.TrialNull})
	if rows[0].Killed != 1 || rows[0].N != 40 || rows[1].Killed != 8 || rows[1].N != 39 || rows[1].Unmeasured["no-coverage"] != 1 {
		t.Fatalf("rows %+v", rows)
	}
	var buf bytes.Buffer
	WriteCalibration(&buf, rep, rows, 0.05)
	want := `A/A calibration of example.com/m: alpha 0.05 (holm), up to 30 samples, fixed iterations of about 20ms a sample, censored past 3x the slowest baseline

level   comparison               trials  false kills    rate  95% interval       alpha
opt     baseline vs itself           40            1    2.5%  [0.1%, 13.2%]       5.0%  ok
opt     baseline vs null mutant      39            8   20.5%  [9.3%, 36.5%]       5.0%  ABOVE alpha (not measured: 1 no-coverage)

warning: mutants that change nothing are killed more often than alpha allows:
  opt, baseline vs null mutant: 8 of 39 trials killed (20.5%, 95% interval 9.3%-36.5%), alpha 0.05
This machine is too noisy for these settings. Try:
  - a longer -sample-time (e.g. 100ms), so each sample averages more iterations;
  - -min-effect 1.02 (or more), so code-layout shifts of a few percent do not kill;
  - fewer background jobs: stop other builds and tests, pin the CPU frequency, avoid shared CI runners;
then run perfmut calibrate again with the same flags.
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}

	// With time ratios, it suggests a minimum effect: the 95% quantile of
	// the trials' largest sec/op ratio; B/op ratios do not count. Ratios
	// 0.981, 0.982, ..., 1.020 over the 40 self trials: the 38th, 1.018.
	for i := range 40 {
		rep.Mutants[i].Results[results.Opt].Benchmarks = []score.TestResult{
			{Metric: score.SecPerOp, Ratio: 0.980 + 0.001*float64(i+1)},
			{Metric: score.BytesPerOp, Ratio: 2},
		}
	}
	buf.Reset()
	WriteCalibration(&buf, rep, rows[:1], 0.05)
	if want := "\nSuggested minimum effect at opt: -min-effect 1.018, the 95% quantile of the largest time median ratio of 40 measured trials (layout and noise alone); the default is 1.01.\n"; !strings.Contains(buf.String(), want) {
		t.Errorf("no suggestion %q in:\n%s", want, buf.String())
	}

	// From 2 trials (whose mutants were faster) no suggestion: it would be
	// -min-effect 1, the guard off. It says the trials are too few.
	two := &results.Report{Module: rep.Module, Settings: rep.Settings, Mutants: slices.Clone(rep.Mutants[:2])}
	for i, r := range []float64{0.97, 0.99} {
		two.Mutants[i].Results = map[string]*results.LevelResult{results.Opt: {Status: score.Survived, Benchmarks: []score.TestResult{{Metric: score.SecPerOp, Ratio: r}}}}
	}
	buf.Reset()
	WriteCalibration(&buf, two, TallyCalibration(two, []string{results.Opt}, []string{results.TrialSelf}), 0.05)
	if out := buf.String(); strings.Contains(out, "Suggested minimum effect") ||
		!strings.Contains(out, "\nNo minimum effect suggested at opt: too few trials to suggest a minimum effect: 2 A/A time ratios cannot place their 95% quantile; run at least 20 trials.\n") {
		t.Errorf("2 trials:\n%s", out)
	}

	// 1 of 14 is above alpha, but not significantly: ask for more trials.
	rows = []CalibrationRow{{Level: results.NoOpt, Kind: results.TrialSelf, Killed: 1, N: 14}}
	rows[0].Lo, rows[0].Hi = score.ClopperPearson(1, 14, 0.95)
	buf.Reset()
	WriteCalibration(&buf, rep, rows, 0.05)
	want = `A/A calibration of example.com/m: alpha 0.05 (holm), up to 30 samples, fixed iterations of about 20ms a sample, censored past 3x the slowest baseline

level   comparison               trials  false kills    rate  95% interval       alpha
noopt   baseline vs itself           14            1    7.1%  [0.2%, 33.9%]       5.0%  above alpha, not significantly

warning: the false-kill rate is above alpha, but its interval still includes alpha:
  noopt, baseline vs itself: 1 of 14 trials killed (7.1%, 95% interval 0.2%-33.9%), alpha 0.05
Run more -trials (e.g. -trials 100) to tell noise from chance. If it stays above alpha, try:
  - a longer -sample-time (e.g. 100ms), so each sample averages more iterations;
  - -min-effect 1.02, so tiny shifts do not kill;
  - fewer background jobs: stop other builds and tests, pin the CPU frequency, avoid shared CI runners;
then run perfmut calibrate again with the same flags.
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestCalibrationWithinAlpha: kills are called trustworthy only when every
// measured row's 95% upper bound is at most alpha; a rate not above alpha
// on too few trials says how many trials with no false kill would show it
// (0 of 72: upper bound 1-0.025^(1/72) = 4.995%; of 71: 5.06%).
func TestCalibrationWithinAlpha(t *testing.T) {
	rep := &results.Report{Module: "example.com/m", Settings: results.Settings{RuleSettings: results.RuleSettings{Rule: score.Rule{Alpha: 0.05, Correction: score.Holm, MaxSamples: 30}}}}
	for _, c := range []struct {
		killed, n int
		want      string
	}{
		{0, 80, "\nThe false-kill rate is within alpha: kills on this machine can be trusted at these settings.\n"},
		{1, 40, "\nNo false-kill rate is above alpha, but 40 trials cannot show it within alpha (the 95% upper bound reaches 13.2%); -trials 72 with no false kill would.\n"},
		{0, 2, "\nNo false-kill rate is above alpha, but 2 trials cannot show it within alpha (the 95% upper bound reaches 84.2%); -trials 72 with no false kill would.\n"},
	} {
		row := CalibrationRow{Level: results.Opt, Kind: results.TrialSelf, Killed: c.killed, N: c.n}
		row.Lo, row.Hi = score.ClopperPearson(c.killed, c.n, 0.95)
		var buf bytes.Buffer
		WriteCalibration(&buf, rep, []CalibrationRow{row}, 0.05)
		if !strings.HasSuffix(buf.String(), c.want) {
			t.Errorf("%d of %d: got\n%s\nwant it to end with\n%s", c.killed, c.n, buf.String(), c.want)
		}
	}
}
