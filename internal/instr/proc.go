package instr

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
)

// A procError is a process that ran but did not succeed.
type procError struct {
	what    string // "timed out after 2m0s", "exit status 2", ...
	command string
	output  []byte
}

func (e *procError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.command, e.what, lastLines(e.output, 3))
}

// runProc runs name with args in dir with env as internal/proc runs every
// process of perfmut's (a process group of its own, SIGQUIT then SIGKILL
// to the group when timeout (if > 0) passes or ctx is cancelled, nothing
// of it left running) and returns its stdout and stderr merged. The error
// is ctx's if ctx ended it, a *procError if it timed out or did not exit
// with status 0, or the failure to start it.
func runProc(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) ([]byte, error) {
	res, err := proc.Run(ctx, dir, env, timeout, name, args...)
	command := strings.Join(append([]string{name}, args...), " ")
	switch {
	case err != nil:
		return nil, err
	case res.Canceled:
		return res.Output, ctx.Err()
	case res.TimedOut:
		return res.Output, &procError{what: "timed out after " + timeout.String(), command: command, output: res.Output}
	case res.Signal != 0:
		return res.Output, &procError{what: "signal: " + res.Signal.String(), command: command, output: res.Output}
	case res.ExitCode != 0:
		return res.Output, &procError{what: fmt.Sprintf("exit status %d", res.ExitCode), command: command, output: res.Output}
	}
	return res.Output, nil
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
