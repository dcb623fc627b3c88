package detect

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
)

// runCmd runs name with args in dir as internal/proc does every process
// of perfmut's (a process group of its own, stopped with SIGQUIT then
// SIGKILL past timeout (0 = none) or when ctx is cancelled, nothing of it
// left running), with stdout and stderr merged. Cancelling returns ctx's
// error alone (not the goroutine dump SIGQUIT makes the process print);
// another failure returns the output's tail in the error.
func runCmd(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) ([]byte, error) {
	res, err := proc.Run(ctx, dir, env, timeout, name, args...)
	return resultErr(ctx, strings.Join(append([]string{name}, args...), " "), timeout, res, err)
}

// resultErr is the output of the process cmdline that ended with res and
// err (from proc.Run), and its error: ctx's if ctx stopped it, else one
// saying why it failed with the output's tail.
func resultErr(ctx context.Context, cmdline string, timeout time.Duration, res proc.Result, err error) ([]byte, error) {
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", cmdline, err)
	case res.Canceled:
		return res.Output, ctx.Err()
	case res.TimedOut:
		return res.Output, fmt.Errorf("%s: ran past its deadline of %v", cmdline, timeout)
	case res.Signal != 0:
		return res.Output, fmt.Errorf("%s: %v\n%s", cmdline, res.Signal, tail(string(res.Output), 2000))
	case res.ExitCode != 0:
		return res.Output, fmt.Errorf("%s: exit status %d\n%s", cmdline, res.ExitCode, tail(string(res.Output), 2000))
	}
	return res.Output, nil
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
