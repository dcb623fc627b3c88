package report

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

func TestMTEStatusMapping(t *testing.T) {
	want := map[score.Status]string{
		score.Killed: "Killed", score.Survived: "Survived", score.NoCoverage: "NoCoverage",
		score.Timeout: "Timeout", score.CompileError: "CompileError", score.FNE: "RuntimeError", score.Crash: "RuntimeError",
		score.Equivalent: "Ignored", score.Undecided: "Ignored",
	}
	for _, s := range score.Statuses {
		if got := mteStatus(s); got != want[s] {
			t.Errorf("mteStatus(%s) = %s, want %s", s, got, want[s])
		}
	}
}

func TestMutationTestingElementsContent(t *testing.T) {
	rep := fixture(t)
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "textutil"), 0o755)
	lower := strings.Repeat("// line\n", 13) + "\t\tc := s[i]\n"
	os.WriteFile(filepath.Join(src, "textutil", "lower.go"), []byte(lower), 0o644)
	var buf bytes.Buffer
	if err := writeMTE(&buf, rep, Options{SourceDir: src}); err != nil {
		t.Fatal(err)
	}
	var out mteReport
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	got := map[string]mteMutant{}
	n := 0
	for _, f := range out.Files {
		for _, m := range f.Mutants {
			got[m.ID] = m
			n++
		}
	}
	levels := 0
	for _, m := range rep.Mutants {
		levels += len(m.Results)
	}
	if n != levels {
		t.Errorf("%d mutation-testing-elements mutants, want one per mutant and level = %d", n, levels)
	}
	for _, tc := range []struct{ id, status string }{
		{"3f9c2a1b7d04@opt", "Killed"},
		{"c17e04d2a9b8@opt", "Survived"},
		{"c17e04d2a9b8@noopt", "Killed"},
		{"0d4471be9c2e@noopt", "NoCoverage"},
		{"6f1ab3e7d2c8@opt", "CompileError"},
		{"b2f5e8d4c019@opt", "RuntimeError"},
		{"d9e6a2b1c4f0@opt", "RuntimeError"}, // crash
		{"2c8d0f9e4a73@noopt", "Timeout"},
		{"5c0e9a7f3b18@opt", "Ignored"}, // undecided
	} {
		if got[tc.id].Status != tc.status {
			t.Errorf("%s: status %q, want %q", tc.id, got[tc.id].Status, tc.status)
		}
	}
	if r := got["5c0e9a7f3b18@opt"].StatusReason; r != "undecided: the ratio could still be x1.26 (95% upper bound of the per-round ratios) on BenchmarkParse sec/op after 30 samples; a slowdown of x1.05 is not ruled out; more samples (-max-samples), a quieter machine or longer samples (-benchtime) would decide it" {
		t.Errorf("undecided statusReason %q", r)
	}
	if sc, _ := json.Marshal(out.Config["score"]); !strings.Contains(string(sc), `"undecided":1`) {
		t.Errorf("config.score %s lacks the undecided count", sc)
	}
	k := got["e4c90b6a1f27@opt"]
	if !slices.Equal(k.CoveredBy, []string{"example.com/demo/parse.BenchmarkNext", "example.com/demo/parse.BenchmarkParse"}) ||
		!slices.Equal(k.KilledBy, k.CoveredBy) {
		t.Errorf("lock-contention coveredBy %v killedBy %v", k.CoveredBy, k.KilledBy)
	}
	if f := out.Files["textutil/lower.go"]; f == nil || f.Source != lower {
		t.Errorf("textutil/lower.go source not embedded")
	}
	if loc := got["3f9c2a1b7d04@opt"].Location; loc.Start != (mtePos{14, 3}) || loc.End != (mtePos{14, 12}) {
		t.Errorf("location %+v, want 14:3 to just past the end of line 14 (14:12)", loc)
	}
}

func TestSARIFContent(t *testing.T) {
	var buf bytes.Buffer
	if err := writeSARIF(&buf, fixture(t), Options{PathPrefix: "go"}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	res := log.Runs[0].Results
	// 2 covered survivors + 1 undecided + 4 no-coverage mutants.
	if len(res) != 7 {
		t.Fatalf("%d results, want 7", len(res))
	}
	first := res[0]
	if first.RuleID != "cap-hint-drop" || first.Level != "warning" ||
		first.Locations[0].Physical.Artifact.URI != "go/textutil/split.go" ||
		first.Locations[0].Physical.Region != (sarifRegion{9, 9}) ||
		!strings.Contains(first.Message.Text, "Benchmarks tried: BenchmarkSplit, BenchmarkSplit/sep=comma.") ||
		!strings.HasSuffix(first.Message.Text, " Check it with perfmut reproduce 5be2d8f0a611.") ||
		log.Runs[0].Tool.Driver.Rules[first.RuleIndex].ID != first.RuleID {
		t.Errorf("first result = %+v", first)
	}
	notes, undecided := 0, 0
	for _, r := range res {
		switch {
		case r.Level != "note":
		case strings.HasPrefix(r.Message.Text, "Performance mutant undecided at opt and noopt in (*Parser).All"):
			undecided++
			if !strings.Contains(r.Message.Text, "opt: the ratio could still be x1.26 (95% upper bound") || !strings.HasSuffix(r.Message.Text, " Check it with perfmut reproduce 5c0e9a7f3b18.") {
				t.Errorf("undecided message %q", r.Message.Text)
			}
		case strings.HasPrefix(r.Message.Text, "No benchmark reaches"):
			notes++
		default:
			t.Errorf("note message %q", r.Message.Text)
		}
	}
	if notes != 4 || undecided != 1 {
		t.Errorf("%d no-coverage and %d undecided note results, want 4 and 1", notes, undecided)
	}
	if sc, _ := json.Marshal(log.Runs[0].Properties["score"]); !strings.Contains(string(sc), `"undecided":1`) {
		t.Errorf("run properties' score %s lacks the undecided count", sc)
	}
}

func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, fixture(t)); err != nil {
		t.Fatal(err)
	}
	for _, f := range Formats() {
		st, err := os.Stat(filepath.Join(dir, f.File))
		if err != nil || st.Size() == 0 {
			t.Errorf("%s not written (%v)", f.File, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(Formats()) {
		t.Errorf("%d files in the output directory, want %d (temporary files left?)", len(entries), len(Formats()))
	}
	if err := WriteAll(filepath.Join(dir, "missing"), fixture(t)); err == nil {
		t.Errorf("WriteAll into a missing directory succeeded")
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ content, want string }{
		{`{"module": "x"}`, `not a perfmut report.json: no "schema" field`},
		{`{"schema": "perfmut/report/v9"}`, `report schema "perfmut/report/v9", this perfmut reads "perfmut/report/v1"`},
		{`[1,2]`, `not a perfmut report.json`},
		{`{"schema": "perfmut/report/v1", "mutants": [{"operator": "sleep"}]}`, `mutant 0 has no id`},
	} {
		p := filepath.Join(dir, "report.json")
		os.WriteFile(p, []byte(tc.content), 0o644)
		_, err := results.ReadFile(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("ReadFile(%s) error %v, want %q", tc.content, err, tc.want)
		}
	}
	// Round trip.
	rep := fixture(t)
	p := filepath.Join(dir, "again.json")
	if err := results.WriteJSON(p, rep); err != nil {
		t.Fatal(err)
	}
	again, err := results.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(rep)
	b, _ := json.Marshal(again)
	if !bytes.Equal(a, b) {
		t.Errorf("report.json does not survive WriteFile and ReadFile")
	}
}

// TestFixtureIsConsistent checks the hand-made fixture against the real
// statistics: each test's D and p are what score.OneSidedKS gives for its
// samples, and the scores match the statuses.
func TestFixtureIsConsistent(t *testing.T) {
	rep := fixture(t)
	checked := 0
	for _, m := range rep.Mutants {
		for level, r := range m.Results {
			for i, s := range r.Samples {
				tr := r.Benchmarks[i]
				if tr.Benchmark != s.Benchmark || tr.Metric != s.Metric {
					t.Fatalf("%s %s: test %d is %s %s, samples %s %s", m.ID, level, i, tr.Benchmark, tr.Metric, s.Benchmark, s.Metric)
				}
				d, p := score.OneSidedKS(s.Baseline, s.Mutant)
				if math.Abs(d-tr.D) > 1e-6 || math.Abs(p-tr.P) > 1e-5*p {
					t.Errorf("%s %s %s: fixture D=%g p=%g, OneSidedKS gives D=%g p=%g", m.ID, level, s.Metric, tr.D, tr.P, d, p)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d tests checked", checked)
	}
	for _, l := range rep.Levels() {
		c := statusCounts(rep, l)
		s := rep.Score[l]
		if s.Killed != c[score.Killed] || s.Valid != c[score.Killed]+c[score.Survived]+c[score.NoCoverage] {
			t.Errorf("%s: score %+v does not match the statuses %v", l, s, c)
		}
	}
}

func TestBenchFilter(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"BenchmarkSplit"}, ".name:Split"},
		{[]string{"BenchmarkSplit", "BenchmarkSplit/sep=comma"}, ".name:Split"},
		{[]string{"BenchmarkCopy/size=4k", "BenchmarkJoin"}, "(.name:Copy /size:4k) OR (.name:Join)"},
		{[]string{"BenchmarkDeleteAndRestore/Clear"}, ""}, // positional sub-benchmark: no simple query
		{[]string{"BenchmarkX/a=b c"}, ""},
	} {
		if got := benchFilter(tc.names); got != tc.want {
			t.Errorf("benchFilter(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

func TestRatioString(t *testing.T) {
	for in, want := range map[float64]string{1: "×1.000", 1.23456: "×1.235", score.UnboundedRatio: "×inf (baseline median 0)", -score.UnboundedRatio: "×-inf (baseline median 0)", 0.5: "×0.500"} {
		if got := ratioString(in); got != want {
			t.Errorf("ratioString(%g) = %q, want %q", in, got, want)
		}
	}
}
