package instr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// killGrace is how long a cancelled process's group has to exit after
// SIGKILL before Wait gives up on its output pipes.
const killGrace = 2 * time.Second

// maxOutput caps the output kept of one process.
const maxOutput = 1 << 20

// A procError is a process that ran but did not succeed.
type procError struct {
	what    string // "timed out after 2m0s", "exit status 2", ...
	command string
	output  []byte
}

func (e *procError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.command, e.what, lastLines(e.output, 3))
}

// runProc runs name with args in dir with env, in a process group of its
// own where the platform has them, and returns its stdout and stderr
// merged. When timeout (if > 0) passes or ctx is cancelled, the whole group
// is killed; when the process has exited, whatever it left in its group is
// killed too. The error is ctx's if ctx ended it, a *procError if it timed
// out or exited non-zero, or the failure to start it.
func runProc(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) ([]byte, error) {
	pctx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(pctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	w := &capWriter{&out, maxOutput}
	cmd.Stdout, cmd.Stderr = w, w
	setGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	cmd.WaitDelay = killGrace
	err := cmd.Run()
	if cmd.Process != nil {
		killGroup(cmd.Process)
	}
	if ctx.Err() != nil {
		return out.Bytes(), ctx.Err()
	}
	command := strings.Join(append([]string{name}, args...), " ")
	if pctx.Err() != nil {
		return out.Bytes(), &procError{what: "timed out after " + timeout.String(), command: command, output: out.Bytes()}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.Bytes(), &procError{what: ee.ProcessState.String(), command: command, output: out.Bytes()}
	}
	return out.Bytes(), err
}

// capWriter writes to w until max bytes, then drops the rest.
type capWriter struct {
	w   *bytes.Buffer
	max int
}

func (c *capWriter) Write(p []byte) (int, error) {
	if room := c.max - c.w.Len(); room > 0 {
		c.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// lastLines returns the last n non-empty lines of out, joined by " | ", or
// "no output".
func lastLines(out []byte, n int) string {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return "no output"
	}
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}
