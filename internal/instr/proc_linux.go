package instr

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup starts cmd in a process group of its own, killed with SIGKILL
// if perfmut dies (Pdeathsig), so no valgrind run outlives it.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to p's process group.
func killGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGKILL) }
