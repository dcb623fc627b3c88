//go:build unix && !linux

package proc

import (
	"os/exec"
	"syscall"
)

// setGroup starts cmd in a process group of its own. macOS and the BSDs
// have no Pdeathsig: if perfmut itself is killed with SIGKILL, a running
// child goes on until its own deadline (every process perfmut starts has
// one) instead of dying with it. SIGINT and SIGTERM still stop every
// group cleanly.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
