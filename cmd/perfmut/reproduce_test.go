package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/runner"
)

// TestReproduceCampaign runs a campaign on two mutants of testdata/repro,
// one that makes BenchmarkChecksum about twenty times slower (lock and
// unlock a mutex per byte) and one that adds a lock to a loop of one
// element per call, then reproduces each: benchstat finds the first
// slower by far, in agreement with its kill; for the second, whose effect
// is next to nothing, what benchstat finds is chance and the load (6
// samples a side: p <= 0.05 in about one comparison of twenty without any
// effect), so only the closing line's logic is checked: it says "slower"
// exactly when the row it quotes is slower at p <= 0.05, and agrees or
// disagrees with the campaign's verdict accordingly. The module is not
// changed.
func TestReproduceCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a campaign")
	}
	mod := runnerModule(t, "repro")
	before := hashTree(t, mod)
	out := filepath.Join(t.TempDir(), "out")
	const slow, none = "0780da4326d9", "56873e2d3bd3"
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), &stdout, &stderr, []string{"run", "-C", mod, "-out", out, "-opt", "on",
		"-mutants", slow + "," + none, "-max-samples", "10"}); code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, stderr.String())
	}
	for _, id := range []string{slow, none} {
		stdout.Reset()
		stderr.Reset()
		if code := run(context.Background(), &stdout, &stderr, []string{"reproduce", "-C", mod, "-out", out, "-count", "6", id[:6]}); code != exitOK {
			t.Fatalf("reproduce %s: exit %d\n%s", id, code, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		last := lines[len(lines)-1]
		delta := regexp.MustCompile(`Checksum-?\d* sec/op ([-+][0-9.]+)% p=`).FindStringSubmatch(last)
		if delta == nil {
			t.Fatalf("reproduce %s: last line %q names no sec/op change\n%s", id, last, stdout.String())
		}
		d, _ := strconv.ParseFloat(delta[1], 64)
		switch id {
		case slow:
			if !strings.HasPrefix(last, "agree: killed at opt, and benchstat finds it slower at p <= 0.05: Checksum") || d < 300 {
				t.Errorf("reproduce %s: %s", id, last)
			}
		case none:
			if !consistentAgreement(last, d) {
				t.Errorf("reproduce %s: closing line %q does not follow from its row", id, last)
			}
		}
		for _, f := range []string{runner.ReproBaseFile, runner.ReproMutFile} {
			data, err := os.ReadFile(filepath.Join(out, "reproduce", id, "opt", f))
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(data), "\nBenchmarkChecksum"); n != 6 {
				t.Errorf("reproduce %s: %s holds %d samples, want 6", id, f, n)
			}
		}
	}
	if hashTree(t, mod) != before {
		t.Error("the module changed")
	}
}

// consistentAgreement reports whether reproduce's closing line follows
// from the benchstat row it quotes (whose sec/op change is d percent): it
// finds a slowdown exactly when the row is slower at p <= 0.05, and agrees
// with a kill exactly when it does, with a survival exactly when it does
// not.
func consistentAgreement(line string, d float64) bool {
	m := regexp.MustCompile(`^(?:(agree|disagree): (killed|survived)|\S+) at opt[,:] .*benchstat finds (it slower|no slowdown) at p <= 0\.05.* p=([0-9.]+)\)?$`).FindStringSubmatch(line)
	if m == nil {
		return false
	}
	p, err := strconv.ParseFloat(m[4], 64)
	if err != nil {
		return false
	}
	slower := p <= 0.05 && d > 0
	if slower != (m[3] == "it slower") {
		return false
	}
	switch m[2] {
	case "killed":
		return (m[1] == "agree") == slower
	case "survived":
		return (m[1] == "agree") == !slower
	}
	return true
}

// TestConsistentAgreement: the check of TestReproduceCampaign's closing
// line accepts the lines agreement writes and refuses one whose words do
// not follow from its row.
func TestConsistentAgreement(t *testing.T) {
	for _, c := range []struct {
		line string
		d    float64
		want bool
	}{
		{"agree: killed at opt, and benchstat finds it slower at p <= 0.05: Checksum sec/op +1900.00% p=0.002", 1900, true},
		{"disagree: killed at opt, but benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op +3.10% p=0.394)", 3.1, true},
		{"agree: survived at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op -1.20% p=0.699)", -1.2, true},
		{"disagree: survived at opt, but benchstat finds it slower at p <= 0.05: Checksum sec/op +12.00% p=0.026", 12, true},
		{"undecided at opt: no kill or survival to check; benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op +0.50% p=0.818)", 0.5, true},
		{"undecided at opt: no kill or survival to check; benchstat finds it slower at p <= 0.05: Checksum sec/op +9.00% p=0.041", 9, true},
		{"agree: survived at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op +12.00% p=0.026)", 12, false},
		{"agree: killed at opt, and benchstat finds no slowdown at p <= 0.05 (closest: Checksum sec/op +3.10% p=0.394)", 3.1, false},
		{"disagree: survived at opt, but benchstat finds it slower at p <= 0.05: Checksum sec/op -2.00% p=0.026", -2, false},
		{"Checksum sec/op +1.00% p=0.5", 1, false},
	} {
		if got := consistentAgreement(c.line, c.d); got != c.want {
			t.Errorf("%q: %v, want %v", c.line, got, c.want)
		}
	}
}
