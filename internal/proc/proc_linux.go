package proc

import (
	"os/exec"
	"syscall"
)

// setGroup starts cmd in a process group of its own. On Linux the child
// also gets SIGKILL when perfmut dies (Pdeathsig), so a perfmut killed with
// SIGKILL leaves no benchmark running.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
