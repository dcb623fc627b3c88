//go:build !unix

package detect

import "os/exec"

// setGroup: without process groups, cancelling kills the process alone.
func setGroup(cmd *exec.Cmd) {}

// killGroup: nothing more to kill without process groups.
func killGroup(cmd *exec.Cmd) {}
