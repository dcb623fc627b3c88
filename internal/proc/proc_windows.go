package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup does nothing on Windows: there are no Unix process groups, so
// perfmut can stop only the process it started, not what that process
// started in turn (the go command's own children).
func setGroup(cmd *exec.Cmd) {}

// quitGroup cannot ask a Windows process for its goroutine dump; the
// process is killed by killGroup after the grace period.
func quitGroup(p *os.Process) {}

// killGroup kills p.
func killGroup(p *os.Process) { p.Kill() }

// Alive reports whether a process with this pid exists.
func Alive(pid int) bool {
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	syscall.CloseHandle(h)
	return true
}
