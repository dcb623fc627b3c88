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
// slower by far, in agreement with its kill, and not the second by much;
// the module is not changed.
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
			// Samples on a loaded machine move the medians by tens of
			// percent either way; a significant slowdown of +50 % would
			// be no noise.
			if strings.Contains(last, "finds it slower") && d > 50 {
				t.Errorf("reproduce %s: %s", id, last)
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
