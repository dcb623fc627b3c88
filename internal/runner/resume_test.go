package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// resumeMutants is a cheap subset of hotMutants with one of each kind of
// ending.
func resumeMutants(t testing.TB, mod mutate.Module) []mutate.Mutant {
	var out []mutate.Mutant
	for _, m := range hotMutants(t, mod) {
		switch m.ID {
		case "sum-spin", "unused-spin", "find-unbreak", "sum-compile":
			out = append(out, m)
		}
	}
	return out
}

var resumeWant = map[string]string{
	"sum-spin":     "opt=killed",
	"unused-spin":  "opt=no-coverage",
	"find-unbreak": "opt=fne",
	"sum-compile":  "opt=compile-error",
}

// TestHelperCampaign is not a test: TestKillResume runs it in a child
// process, to SIGKILL it.
func TestHelperCampaign(t *testing.T) {
	dir, out := os.Getenv("PERFMUT_HELPER_MODULE"), os.Getenv("PERFMUT_HELPER_OUT")
	if dir == "" {
		t.Skip("helper process for TestKillResume")
	}
	mod, pkgs, err := loadModule(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestCampaign(t, mod, pkgs, resumeMutants(t, mod), out)
	c.Levels = []string{results.Opt}
	c.Jobs = 1
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func journalLines(t *testing.T, out string) int {
	entries, _, err := results.ReadJournal(filepath.Join(out, results.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// waitJournal waits until the journal has at least n lines, for as long
// as the test may run but a minute: the campaign's baseline builds,
// coverage and first mutant took more than a minute at a load average of
// 25 on 2 cores, and no fixed wait is long enough for every load.
func waitJournal(t *testing.T, out string, n int) {
	deadline := 10 * time.Minute
	if d, ok := t.Deadline(); ok {
		deadline = time.Until(d) - time.Minute
	}
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		if data, err := os.ReadFile(filepath.Join(out, results.JournalFile)); err == nil && strings.Count(string(data), "\n") >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("journal did not reach %d lines in %s", n, deadline.Round(time.Second))
}

// waitNoLeftovers waits for processes of a killed run to go away.
func waitNoLeftovers(t *testing.T, tmp string) {
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		if len(leftovers(tmp)) == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("processes left behind:\n%s", strings.Join(leftovers(tmp), "\n"))
}

func TestKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	tmp := privateTmp(t)
	mod, pkgs := testModule(t, "hot")
	before := treeHash(t, mod.Dir)
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCampaign$", "-test.v")
	cmd.Env = append(os.Environ(), "PERFMUT_HELPER_MODULE="+mod.Dir, "PERFMUT_HELPER_OUT="+out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitJournal(t, out, 1)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	waitNoLeftovers(t, tmp)
	n := journalLines(t, out)
	if n >= len(resumeWant) {
		t.Fatalf("the run finished (%d results) before it was killed", n)
	}
	if after := treeHash(t, mod.Dir); after != before {
		t.Errorf("the module changed after SIGKILL")
	}

	// Without -resume a run would start afresh there, the killed run's
	// results kept in previous/ (TestPrepareOutKeepsPrevious): nothing
	// refuses it, and nothing is moved until it runs.
	c := newTestCampaign(t, mod, pkgs, resumeMutants(t, mod), out)
	c.Levels = []string{results.Opt}
	if err := c.CheckOut(context.Background()); err != nil {
		t.Fatalf("CheckOut without -resume over a killed run: %v", err)
	}
	if n := journalLines(t, out); n == 0 {
		t.Fatalf("CheckOut moved the journal")
	}
	c.Resume = true
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := statuses(rep)
	for id, w := range resumeWant {
		if got[id] != w {
			t.Errorf("%s: got %q, want %q", id, got[id], w)
		}
	}
	if n := journalLines(t, out); n != len(resumeWant) {
		t.Errorf("journal has %d lines after resume, want %d (one per mutant, none redone)", n, len(resumeWant))
	}
	// The killed run's temporary directory went with the resumed run.
	if matches, _ := filepath.Glob(filepath.Join(tmp, "perfmut-run-*")); len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
	if after := treeHash(t, mod.Dir); after != before {
		t.Errorf("the module changed after -resume")
	}
}

func TestInterruptResume(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and measures a module")
	}
	tmp := privateTmp(t)
	mod, pkgs := testModule(t, "hot")
	before := treeHash(t, mod.Dir)
	out := filepath.Join(t.TempDir(), "out")
	c := newTestCampaign(t, mod, pkgs, resumeMutants(t, mod), out)
	c.Levels = []string{results.Opt}
	c.Jobs = 1
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		waitJournal(t, out, 1)
		cancel() // Ctrl-C
	}()
	_, err := c.Run(ctx)
	cancel()
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v, want interrupted", err)
	}
	waitNoLeftovers(t, tmp)
	if matches, _ := filepath.Glob(filepath.Join(tmp, "perfmut-run-*")); len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
	n := journalLines(t, out)
	if n < 1 || n >= len(resumeWant) {
		t.Fatalf("journal has %d lines after the interrupt", n)
	}
	if after := treeHash(t, mod.Dir); after != before {
		t.Errorf("the module changed after Ctrl-C")
	}
	c = newTestCampaign(t, mod, pkgs, resumeMutants(t, mod), out)
	c.Levels = []string{results.Opt}
	c.Resume = true
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := statuses(rep)
	for id, w := range resumeWant {
		if got[id] != w {
			t.Errorf("%s: got %q, want %q", id, got[id], w)
		}
	}
	if n := journalLines(t, out); n != len(resumeWant) {
		t.Errorf("journal has %d lines after resume, want %d", n, len(resumeWant))
	}
}
