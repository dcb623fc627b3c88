package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/instr"
)

// TestMeasureUnavailable: -measure instructions without valgrind in PATH
// prints one line saying how to get it and exits 2, for run, compare and
// calibrate, before anything is built or written; a bad -measure value is
// a usage error too.
func TestMeasureUnavailable(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no valgrind (nor go: nothing may be built)
	const want = "cannot count instructions: valgrind is not installed (not found in PATH); install the valgrind package (Debian or Ubuntu: apt-get install valgrind; Fedora: dnf install valgrind) or use -measure time\n"
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "-measure", "instructions"}, "perfmut run: " + want},
		{[]string{"calibrate", "-measure", "instructions"}, "perfmut calibrate: " + want},
		{[]string{"compare", "-measure", "instructions", "HEAD", "WORKTREE"}, "perfmut compare: " + want},
		{[]string{"run", "-measure", "cycles"}, "perfmut run: bad -measure \"cycles\": want time, instructions or auto\n"},
	} {
		out := filepath.Join(dir, tc.args[0]+"-out")
		args := append([]string{tc.args[0], "-out", out}, tc.args[1:]...)
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), &stdout, &stderr, args)
		if code != exitUsage || stderr.String() != tc.msg || stdout.Len() != 0 {
			t.Errorf("perfmut %s: exit %d, stderr %q, stdout %q; want exit 2 and %q", strings.Join(args, " "), code, stderr.String(), stdout.String(), tc.msg)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("perfmut %s wrote %s (%v), want nothing written", strings.Join(args, " "), out, err)
		}
	}
}

// TestMeasureAutoFallsBack: -measure auto without valgrind measures time
// and says why in one line.
func TestMeasureAutoFallsBack(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	f := campaignSettings{measure: measureAuto}
	var log bytes.Buffer
	c, err := f.counting(context.Background(), flag.NewFlagSet("run", flag.ContinueOnError), &log)
	want := "perfmut: -measure auto: measuring time: cannot count instructions: valgrind is not installed (not found in PATH); install the valgrind package (Debian or Ubuntu: apt-get install valgrind; Fedora: dnf install valgrind) or use -measure time\n"
	if c != nil || err != nil || log.String() != want {
		t.Errorf("Counting = %+v, %v, log %q; want time (nil), no error, log %q", c, err, log.String(), want)
	}
}

// TestMeasureCounting: -measure time counts nothing; instructions (with
// valgrind) counts with the counts' minimum effect, or -min-effect when it
// is given.
func TestMeasureCounting(t *testing.T) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind is not installed: counting is not available here (Debian: apt-get install valgrind)")
	}
	for _, tc := range []struct {
		args      []string
		counting  bool
		minEffect float64
	}{
		{nil, false, 0},
		{[]string{"-measure", "instructions"}, true, instr.MinEffect},
		{[]string{"-measure", "auto", "-min-effect", "1.02"}, true, 1.02},
	} {
		f, fs := parseCampaignFlags(t, tc.args)
		c, err := f.counting(context.Background(), fs, io.Discard)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if (c != nil) != tc.counting || c != nil && c.MinEffect != tc.minEffect {
			t.Errorf("%v: Counting = %+v, want counting %v with minimum effect %g", tc.args, c, tc.counting, tc.minEffect)
		}
	}
}

// parseCampaignFlags registers run's campaign flags, parses args and
// checks them.
func parseCampaignFlags(t *testing.T, args []string) (*campaignSettings, *flag.FlagSet) {
	t.Helper()
	var f campaignSettings
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.registerSettings(fs, "out")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.check(); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return &f, fs
}
