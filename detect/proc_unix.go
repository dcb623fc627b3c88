//go:build unix

package detect

import (
	"os/exec"
	"syscall"
)

// setGroup puts cmd in a process group of its own; cancelling sends the
// group SIGQUIT (Go programs print their goroutines), then SIGKILL after
// WaitDelay.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGQUIT) }
}

// killGroup kills whatever cmd left running in its group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
