package proc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// killGrace is how long a timed-out or cancelled process group has between
// SIGQUIT (which makes Go programs dump their goroutines) and SIGKILL.
const killGrace = 2 * time.Second

// maxOutput caps the output kept of one process.
const maxOutput = 8 << 20

// A Result is how one process ended.
type Result struct {
	Output   []byte
	Elapsed  time.Duration
	ExitCode int            // -1 if killed by a signal
	Signal   syscall.Signal // the signal that ended it, if any
	TimedOut bool           // we killed it after its timeout
	Canceled bool           // we killed it because ctx was cancelled
}

// OK reports whether the process exited with status 0 on its own.
func (r Result) OK() bool { return r.ExitCode == 0 && !r.TimedOut && !r.Canceled }

// Run runs name with args in dir, in a process group of its own
// (see setGroup for what each platform offers), with
// stdout and stderr merged. If timeout > 0 and the process runs longer, or
// if ctx is cancelled, the whole group gets SIGQUIT, then SIGKILL after
// killGrace. When the process has exited, any member of its group still
// alive is killed, so nothing is left behind. The error is only for
// failures to start.
func Run(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) (Result, error) {
	var res Result
	if err := ctx.Err(); err != nil {
		res.Canceled = true
		return res, nil
	}
	cmd, pr, start, err := startGroup(dir, env, name, args)
	if err != nil {
		return res, err
	}

	outc := make(chan []byte, 1)
	go func() {
		var buf bytes.Buffer
		io.Copy(&capWriter{&buf, maxOutput}, pr)
		pr.Close()
		outc <- buf.Bytes()
	}()
	waitc := make(chan error, 1)
	go func() { waitc <- cmd.Wait() }()

	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	var werr error
	killed := false
	kill := func() {
		killed = true
		quitGroup(cmd.Process)
		select {
		case werr = <-waitc:
		case <-time.After(killGrace):
			killGroup(cmd.Process)
			werr = <-waitc
		}
	}
	select {
	case werr = <-waitc:
	case <-timer:
		res.TimedOut = true
		kill()
	case <-ctx.Done():
		res.Canceled = true
		kill()
	}
	res.Elapsed = time.Since(start)
	// Kill whatever the process left running in its group (this also
	// closes the pipe if a grandchild inherited it).
	killGroup(cmd.Process)
	select {
	case res.Output = <-outc:
	case <-time.After(killGrace):
		// A process that escaped the group still holds the pipe.
		pr.Close()
		res.Output = <-outc
	}
	res.ExitCode = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		res.Signal = ws.Signal()
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) && !killed {
		return res, werr
	}
	return res, nil
}

// startGroup starts name with args in dir (env: nil = perfmut's) in a
// process group of its own, its stdout and stderr merged into the
// returned pipe; start is when it was started.
func startGroup(dir string, env []string, name string, args []string) (cmd *exec.Cmd, pr *os.File, start time.Time, err error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, start, err
	}
	cmd = exec.Command(name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	cmd.Stdout = pw
	cmd.Stderr = pw
	setGroup(cmd)
	start = time.Now()
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, nil, start, err
	}
	pw.Close()
	return cmd, pr, start, nil
}

// capWriter writes to w until max bytes, then drops the rest.
type capWriter struct {
	w   *bytes.Buffer
	max int
}

func (c *capWriter) Write(p []byte) (int, error) {
	if room := c.max - c.w.Len(); room > 0 {
		if len(p) > room {
			c.w.Write(p[:room])
		} else {
			c.w.Write(p)
		}
	}
	return len(p), nil
}
