//go:build unix

package proc

import (
	"errors"
	"os"
	"syscall"
)

// quitGroup sends SIGQUIT to p's process group: Go programs print every
// goroutine's stack and exit, which tells where a hanging benchmark was.
func quitGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGQUIT) }

// killGroup sends SIGKILL to p's process group, so that nothing p started
// runs on.
func killGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGKILL) }

// Alive reports whether a process with this pid exists.
func Alive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
