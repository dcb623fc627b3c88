package proc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
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

// Command returns the command name with args in dir (env: nil =
// perfmut's), set up as cmd/go sets up the processes it starts: in a
// process group of its own (see setGroup for what each platform offers);
// when ctx is done the whole group gets SIGQUIT, and the process SIGKILL
// after killGrace (WaitDelay), which also bounds how long Wait waits for
// output pipes a child left open. Give ctx a deadline: every process
// perfmut starts has one. Command is for a process whose input and output
// the caller streams; Run runs one to its end.
func Command(ctx context.Context, dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	setGroup(cmd)
	cmd.Cancel = func() error {
		quitGroup(cmd.Process)
		return nil
	}
	cmd.WaitDelay = killGrace
	return cmd
}

// Run runs name with args in dir, in a process group of its own (see
// Command), with stdout and stderr merged. If timeout > 0 and the process
// runs longer, or if ctx is cancelled, the whole group gets SIGQUIT, then
// SIGKILL after killGrace. When the process has exited, any member of its
// group still alive is killed, so nothing is left behind. The error is
// only for failures to start.
func Run(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) (Result, error) {
	var res Result
	if err := ctx.Err(); err != nil {
		res.Canceled = true
		return res, nil
	}
	pctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		pctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	cmd := Command(pctx, dir, env, name, args...)
	var stopped atomic.Bool
	cmd.Cancel = func() error {
		stopped.Store(true)
		quitGroup(cmd.Process)
		return nil
	}
	// The output goes through a pipe of ours, not one exec copies: once
	// the process has exited, what it left in its group is killed before
	// the output is read to its end.
	pr, pw, err := os.Pipe()
	if err != nil {
		return res, err
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	start := time.Now()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return res, err
	}
	outc := make(chan []byte, 1)
	go func() {
		var buf bytes.Buffer
		io.Copy(&capWriter{&buf, maxOutput}, pr)
		outc <- buf.Bytes()
	}()
	werr := cmd.Wait()
	res.Elapsed = time.Since(start)
	if stopped.Load() {
		res.Canceled = ctx.Err() != nil
		res.TimedOut = !res.Canceled
	}
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
	pr.Close()
	res.ExitCode = cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		res.Signal = ws.Signal()
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) && !stopped.Load() {
		return res, werr
	}
	return res, nil
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
