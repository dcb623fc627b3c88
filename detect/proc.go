package detect

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// killGrace is how long a cancelled process group has between SIGQUIT and
// SIGKILL.
const killGrace = 2 * time.Second

// runCmd runs name with args in dir in a process group of its own, with
// stdout and stderr merged; past timeout (0 = none) or when ctx is
// cancelled the group is stopped. A failure returns the output's tail in
// the error.
func runCmd(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) ([]byte, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	setGroup(cmd)
	cmd.WaitDelay = killGrace
	err := cmd.Run()
	killGroup(cmd)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return out.Bytes(), fmt.Errorf("%s: ran past its deadline of %v", strings.Join(cmd.Args, " "), timeout)
		}
		return out.Bytes(), fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, tail(out.String(), 2000))
	}
	return out.Bytes(), nil
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
