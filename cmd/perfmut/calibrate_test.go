package main

import (
	"bytes"
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/report"
	"github.com/perfmut/perfmut/score"
)

func TestClopperPearson(t *testing.T) {
	// Reference values: bisection on the binomial CDF (independent of
	// the Beta quantiles used here).
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 40, 0, 0.088097},
		{2, 40, 0.006114, 0.169197},
		{5, 40, 0.041860, 0.268033},
		{40, 40, 0.911903, 1},
		{0, 0, 0, 1},
	} {
		lo, hi := clopperPearson(tc.k, tc.n, 0.95)
		if math.Abs(lo-tc.lo) > 2e-6 || math.Abs(hi-tc.hi) > 2e-6 {
			t.Errorf("clopperPearson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

func TestCalibrationSites(t *testing.T) {
	m := func(q mutate.Quadrant, file string, line int) mutate.Mutant {
		return mutate.Mutant{Quadrant: q, Package: "p", File: file, Line: line, Column: 2}
	}
	ms := []mutate.Mutant{
		m(mutate.Q4, "a.go", 1), m(mutate.Q3, "a.go", 5), m(mutate.Q3, "a.go", 5), // same site twice
		m(mutate.Q4, "b.go", 9), m(mutate.Q3, "b.go", 3),
	}
	got := calibrationSites(ms, 7, 1, nil)
	if len(got) != 7 {
		t.Fatalf("%d sites, want 7", len(got))
	}
	// 4 distinct sites, the two Q3 ones first, then repeating.
	q3 := map[int]bool{5: true, 3: true}
	if !q3[got[0].Line] || !q3[got[1].Line] || got[0] == got[1] || q3[got[2].Line] || q3[got[3].Line] {
		t.Errorf("sites %v: want the 2 Q3 sites first", got)
	}
	for i := 4; i < 7; i++ {
		if got[i] != got[i-4] {
			t.Errorf("site %d = %v, want a repeat of %v", i, got[i], got[i-4])
		}
	}
	if again := calibrationSites(ms, 7, 1, nil); !equalSites(again, got) {
		t.Errorf("same seed, different sites")
	}
	if calibrationSites(nil, 3, 1, nil) != nil {
		t.Errorf("sites without mutants")
	}
	// Only the sites keep accepts; all of them when it accepts none.
	onlyB := calibrationSites(ms, 3, 1, func(s calibrationSite) bool { return s.File == "b.go" })
	for _, s := range onlyB {
		if s.File != "b.go" {
			t.Errorf("site %v not kept", s)
		}
	}
	if none := calibrationSites(ms, 4, 1, func(calibrationSite) bool { return false }); !equalSites(none, got[:4]) {
		t.Errorf("keep rejecting every site: got %v, want all sites %v", none, got[:4])
	}
}

func equalSites(a, b []calibrationSite) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNullHelperParses(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		src := nullHelper("text", i)
		if _, err := parser.ParseFile(token.NewFileSet(), nullFile, src, 0); err != nil {
			t.Fatalf("null helper %d does not parse: %v\n%s", i, err, src)
		}
		seen[src] = true
	}
	if len(seen) != 20 {
		t.Errorf("null helpers repeat: %d distinct of 20", len(seen))
	}
}

func TestTallyAndWriteCalibration(t *testing.T) {
	rep := &report.Report{Module: "example.com/m", Settings: report.Settings{Alpha: 0.05, Correction: "holm", MaxSamples: 30, SampleTime: "20ms", Censor: 3}}
	add := func(kind string, statuses ...score.Status) {
		for _, s := range statuses {
			m := report.Mutant{Results: map[string]*report.LevelResult{report.Opt: {Status: s}}}
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
	for i := 0; i < 8; i++ {
		null[i] = score.Killed
	}
	null[39] = score.NoCoverage
	add(trialSelf, self...)
	add(trialNull, null...)
	rows := tallyCalibration(rep, []string{report.Opt}, []string{trialSelf, trialNull})
	if rows[0].Killed != 1 || rows[0].N != 40 || rows[1].Killed != 8 || rows[1].N != 39 || rows[1].Unmeasured["no-coverage"] != 1 {
		t.Fatalf("rows %+v", rows)
	}
	var buf bytes.Buffer
	writeCalibration(&buf, rep, rows, 0.05)
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
		rep.Mutants[i].Results[report.Opt].Benchmarks = []score.TestResult{
			{Metric: score.SecPerOp, Ratio: 0.980 + 0.001*float64(i+1)},
			{Metric: score.BytesPerOp, Ratio: 2},
		}
	}
	buf.Reset()
	writeCalibration(&buf, rep, rows[:1], 0.05)
	if want := "\nSuggested minimum effect at opt: -min-effect 1.018, the 95% quantile of the largest time median ratio of 40 measured trials (layout and noise alone); the default is 1.01.\n"; !strings.Contains(buf.String(), want) {
		t.Errorf("no suggestion %q in:\n%s", want, buf.String())
	}

	// 1 of 14 is above alpha, but not significantly: ask for more trials.
	rows = []calibrationRow{{Level: report.NoOpt, Kind: trialSelf, Killed: 1, N: 14}}
	rows[0].Lo, rows[0].Hi = clopperPearson(1, 14, 0.95)
	buf.Reset()
	writeCalibration(&buf, rep, rows, 0.05)
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

func TestCalibrateBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-trials", "0"}, "perfmut calibrate: bad -trials 0: want at least 1 (default 40)\n"},
		{[]string{"-kinds", "x"}, "perfmut calibrate: bad -kinds \"x\": want both, self or null\n"},
		{[]string{"-benchtime", "fast"}, "perfmut calibrate: bad -benchtime \"fast\": want a duration like 100ms or a count like 1000x\n"},
		{[]string{"-resume"}, "perfmut calibrate: -resume needs -out DIR: the directory an interrupted calibrate -out DIR kept\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), &stdout, &stderr, append([]string{"calibrate"}, tc.args...)); code != exitUsage || stderr.String() != tc.want {
			t.Errorf("calibrate %v: exit %d, stderr %q; want 2, %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestCalibrateDemo runs a small calibration on the demo module end to end:
// trials are measured through the runner and the table is printed, and
// the module is left as it was.
func TestCalibrateDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the demo module; skipped with -short")
	}
	mod := filepath.Join(t.TempDir(), "demo")
	if out, err := exec.Command("cp", "-r", filepath.Join("..", "..", "testdata", "demo"), mod).CombinedOutput(); err != nil {
		t.Fatalf("copying the demo module: %v\n%s", err, out)
	}
	before := treeDigest(t, mod)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"calibrate", "-C", mod,
		"-trials", "2", "-opt", "on", "-benchtime", "5ms", "-max-samples", "6", "./cache"})
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, re := range []string{
		`(?m)^opt +baseline vs itself +\d +\d +\d+\.\d% +\[\d+\.\d%, \d+\.\d%\] +5\.0% `,
		`(?m)^opt +baseline vs null mutant +\d +\d +\d+\.\d% `,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", re, out)
		}
	}
	if strings.Contains(out, "no trial measured") || strings.Contains(out, "not measured") {
		t.Errorf("trials went to sites no benchmark runs:\n%s", out)
	}
	if after := treeDigest(t, mod); after != before {
		t.Errorf("calibrate changed the module's files")
	}
}

// treeDigest lists every file of dir with its content.
func treeDigest(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b.WriteString(p + "\n" + string(data) + "\n")
		return err
	})
	return b.String()
}

func TestParseCoverProfile(t *testing.T) {
	prof := `mode: count
example.com/m/text/text.go:21.30,23.3 2 17
example.com/m/text/text.go:30.2,31.10 1 0
example.com/m/text/text.go:21.30,23.3 2 3
example.com/other/x.go:1.1,2.2 1 9
bad line
`
	got := parseCoverProfile([]byte(prof), "example.com/m")
	want := map[string]map[coverBlock]int{"text/text.go": {{21, 30, 23, 3}: 20, {30, 2, 31, 10}: 0}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("parseCoverProfile = %v, want %v", got, want)
	}
	cov := coverage{"text/text.go": {{21, 30, 23, 3}}}
	for _, tc := range []struct {
		file      string
		line, col int
		want      bool
	}{
		{"text/text.go", 21, 30, true},
		{"text/text.go", 22, 1, true},
		{"text/text.go", 23, 2, true},
		{"text/text.go", 23, 3, false}, // the end is exclusive
		{"text/text.go", 21, 29, false},
		{"x.go", 1, 1, false},
	} {
		if got := cov.covers(tc.file, tc.line, tc.col); got != tc.want {
			t.Errorf("covers(%s:%d:%d) = %v, want %v", tc.file, tc.line, tc.col, got, tc.want)
		}
	}
}

func TestAtFirstEdit(t *testing.T) {
	root := t.TempDir()
	src := "package p\n\nfunc f(xs []int) {\n\tfor _, x := range xs {\n\t\t_ = x\n\t}\n}\n"
	os.WriteFile(filepath.Join(root, "p.go"), []byte(src), 0o644)
	body := strings.Index(src, "_ = x")
	ms := atFirstEdit(root, []mutate.Mutant{
		{File: "p.go", Line: 4, Column: 2, Edits: []mutate.Edit{{Start: body + 5, End: body + 5}, {Start: body, End: body}}},
		{File: "p.go", Line: 4, Column: 2},
	})
	if ms[0].Line != 5 || ms[0].Column != 3 {
		t.Errorf("first edit at %d:%d, want 5:3", ms[0].Line, ms[0].Column)
	}
	if ms[1].Line != 4 || ms[1].Column != 2 {
		t.Errorf("a mutant without edits moved to %d:%d", ms[1].Line, ms[1].Column)
	}
}

// TestCalibrateTags: calibrate builds with -tags, as run does (a module
// whose tests need a tagged file does not build without them).
func TestCalibrateTags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks a module; skipped with -short")
	}
	mod := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":         "module example.com/tagged\n\ngo 1.22\n",
		"lib/lib.go":     "// Package lib needs the special tag.\npackage lib\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s + extra\n}\n",
		"lib/special.go": "//go:build special\n\npackage lib\n\nconst extra = 0\n",
		"lib/lib_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum([]int{1, 2}) != 3 {\n\t\tt.Fatal(\"Sum\")\n\t}\n}\n\nvar sink int\n\n" +
			"func BenchmarkSum(b *testing.B) {\n\txs := make([]int, 100)\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += Sum(xs)\n\t}\n}\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o755)
		os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), &stdout, &stderr, []string{"calibrate", "-C", mod, "-tags", "special",
		"-trials", "1", "-kinds", "null", "-opt", "on", "-max-samples", "5", "./..."})
	if code != 0 || !regexp.MustCompile(`(?m)^opt +baseline vs null mutant +1 `).MatchString(stdout.String()) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
}
