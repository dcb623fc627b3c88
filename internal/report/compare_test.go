package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfmut/perfmut/results"
)

// compareFixture reads testdata/compare.json: a real comparison (a 2x
// slowdown) with hand-added benchmarks of every other verdict and status.
func compareFixture(t *testing.T) *results.Comparison { return compareFixtureNamed(t, "compare.json") }

// compareFixtureNamed reads the comparison testdata/name strictly.
func compareFixtureNamed(t *testing.T, name string) *results.Comparison {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var c results.Comparison
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func TestCompareGolden(t *testing.T) {
	c := compareFixture(t)
	var buf bytes.Buffer
	if err := compareText(&buf, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.txt", buf.Bytes())
	golden(t, "compare.md", []byte(compareMarkdown(c)))

	c.Failures = nil
	c.MaxSlowdown = 1.5
	buf.Reset()
	if err := compareText(&buf, c); err != nil {
		t.Fatal(err)
	}
	if got, want := gateLine(c), "gate: pass (no metric slower beyond -max-slowdown 150.0%)"; got != want {
		t.Errorf("gate line %q, want %q", got, want)
	}
	if got, want := mdGate(c), "✅ pass (1 slower within 150.0%)"; got != want {
		t.Errorf("Markdown gate %q, want %q", got, want)
	}
}

func TestParseSlowdown(t *testing.T) {
	for in, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "0": 0, "150%": 1.5, " 10% ": 0.1} {
		if got, err := ParseSlowdown(in); err != nil || got != want {
			t.Errorf("ParseSlowdown(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-5%", "fast", "NaN", "Inf", "5%%"} {
		if _, err := ParseSlowdown(in); err == nil {
			t.Errorf("ParseSlowdown(%q) accepted", in)
		}
	}
}

// The -score section: the textutil package of the run fixture, with one
// of its files changed.
func TestCompareScoreGolden(t *testing.T) {
	c := compareFixture(t)
	c.Score = ScoreFor(fixture(t), "perfmut-out", []string{"example.com/demo/textutil", "example.com/demo/other"}, []string{"textutil/split.go"})
	if got := c.Score.Packages; len(got) != 1 || got[0] != "example.com/demo/textutil" {
		t.Errorf("packages %v, want the one with mutants", got)
	}
	if s := c.Score.Levels[results.Opt]; s.Killed != 2 || s.Valid != 7 {
		t.Errorf("opt score %+v, want 2 of 7 killed (fne not valid)", s)
	}
	var buf bytes.Buffer
	if err := compareText(&buf, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare-score.txt", buf.Bytes())
	golden(t, "compare-score.md", []byte(compareMarkdown(c)))

	none := ScoreFor(fixture(t), "perfmut-out", []string{"example.com/demo/other"}, nil)
	if len(none.Warnings) != 1 || scoreLine(none) != "no mutants" {
		t.Errorf("no mutants in the changed packages: %+v", none)
	}
}
