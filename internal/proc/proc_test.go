//go:build unix

package proc

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sh runs script with sh -c through Run.
func sh(ctx context.Context, t *testing.T, timeout time.Duration, script string) Result {
	t.Helper()
	res, err := Run(ctx, t.TempDir(), nil, timeout, "sh", "-c", script)
	if err != nil {
		t.Fatalf("Run(%q): %v", script, err)
	}
	return res
}

// TestRunExit: stdout and stderr merged, the exit status kept.
func TestRunExit(t *testing.T) {
	res := sh(context.Background(), t, time.Minute, "echo out; echo err >&2; exit 3")
	if got := string(res.Output); got != "out\nerr\n" || res.ExitCode != 3 || res.Signal != 0 || res.TimedOut || res.Canceled || res.OK() {
		t.Errorf("Run = %+v (output %q), want exit status 3 with out and err", res, got)
	}
	if res := sh(context.Background(), t, 0, "true"); !res.OK() {
		t.Errorf("Run(true) = %+v, want OK", res)
	}
}

// TestRunStartFails: a program that does not exist is the error.
func TestRunStartFails(t *testing.T) {
	if _, err := Run(context.Background(), "", nil, time.Minute, "perfmut-no-such-program"); err == nil {
		t.Error("Run of a missing program: no error")
	}
}

// TestRunTimeout: past its deadline the group gets SIGQUIT (a Go program
// prints its goroutines), and the result says it timed out.
func TestRunTimeout(t *testing.T) {
	start := time.Now()
	res := sh(context.Background(), t, 100*time.Millisecond, "sleep 30")
	if !res.TimedOut || res.Canceled || res.Signal != syscall.SIGQUIT || res.OK() {
		t.Errorf("Run past its deadline = %+v, want timed out by SIGQUIT", res)
	}
	if d := time.Since(start); d >= killGrace {
		t.Errorf("stopping took %v, want under killGrace (%v): sh and sleep die of SIGQUIT", d, killGrace)
	}
}

// TestRunCancel: a cancelled context stops the group the same way, and the
// result says it was cancelled; an already cancelled one starts nothing.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res := sh(ctx, t, time.Minute, "sleep 30")
	if !res.Canceled || res.TimedOut || res.Signal != syscall.SIGQUIT {
		t.Errorf("Run cancelled = %+v, want cancelled by SIGQUIT", res)
	}
	res = sh(ctx, t, time.Minute, "exit 0")
	if !res.Canceled || res.Elapsed != 0 {
		t.Errorf("Run with a cancelled context = %+v, want cancelled before starting", res)
	}
}

// TestRunKillsAfterGrace: a group that ignores SIGQUIT gets SIGKILL after
// killGrace (WaitDelay), the children too.
func TestRunKillsAfterGrace(t *testing.T) {
	start := time.Now()
	res := sh(context.Background(), t, 100*time.Millisecond, "trap '' QUIT; sleep 30 & echo $!; wait")
	if d := time.Since(start); !res.TimedOut || res.Signal != syscall.SIGKILL || d < killGrace || d > killGrace+10*time.Second {
		t.Errorf("Run of a group ignoring SIGQUIT = %+v after %v, want SIGKILL after killGrace (%v)", res, d, killGrace)
	}
	waitGone(t, string(res.Output))
}

// TestRunKillsLeftovers: what the process left running in its group is
// killed when it exits, and Run does not wait for it.
func TestRunKillsLeftovers(t *testing.T) {
	start := time.Now()
	res := sh(context.Background(), t, time.Minute, "sleep 30 & echo $!")
	if !res.OK() {
		t.Fatalf("Run = %+v, want OK", res)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run took %v: it waited for the child the process left", d)
	}
	waitGone(t, string(res.Output))
}

// waitGone fails unless the process whose pid out holds is gone (or a
// zombie nobody reaps yet) within a few seconds.
func waitGone(t *testing.T, out string) {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("no pid in the output %q", out)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !Alive(pid) || zombie(pid) {
			return
		}
	}
	t.Errorf("process %d still runs after Run returned", pid)
}

// TestCapWriter: output past the cap is dropped, and the writer never fails.
func TestCapWriter(t *testing.T) {
	var buf bytes.Buffer
	w := &capWriter{&buf, 5}
	for _, s := range []string{"abc", "defg", "hij"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Errorf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got := buf.String(); got != "abcde" {
		t.Errorf("kept %q, want abcde", got)
	}
}

// TestGoCommandTempDir: the go command's go-build* directories go under
// the run's private temporary directory, which the next run removes if
// perfmut was killed; the command is logged first.
func TestGoCommandTempDir(t *testing.T) {
	tmp := t.TempDir()
	var logged []string
	g := GoCommand{Tmp: tmp, Log: func(dir string, args ...string) { logged = append(logged, strings.Join(args, " ")) }}
	res, err := g.Run(context.Background(), t.TempDir(), "env", "GOTMPDIR")
	if err != nil || !res.OK() {
		t.Fatalf("go env: %v %s", err, res.Output)
	}
	if got, want := strings.TrimSpace(string(res.Output)), filepath.Join(tmp, "gotmp"); got != want {
		t.Errorf("GOTMPDIR = %q, want %q", got, want)
	}
	if len(logged) != 1 || logged[0] != "env GOTMPDIR" {
		t.Errorf("logged %q, want the one command", logged)
	}
}

// TestGoCommandArgs: the flags, then the tags, then the packages.
func TestGoCommandArgs(t *testing.T) {
	g := GoCommand{Tags: []string{"a", "b"}}
	got := strings.Join(g.args([]string{"test", "-c", "-vet=off", "-o", "out/"}, []string{"-cover"}, []string{"m/p", "m/q"}), " ")
	if want := "test -c -vet=off -o out/ -cover -tags a,b m/p m/q"; got != want {
		t.Errorf("args = %q, want %q", got, want)
	}
}
