//go:build !linux

package instr

import (
	"os"
	"os/exec"
)

// setGroup does nothing where valgrind cannot run Go programs: Available
// reports the platform unsupported before any process starts.
func setGroup(cmd *exec.Cmd) {}

// killGroup kills p.
func killGroup(p *os.Process) error { return p.Kill() }
