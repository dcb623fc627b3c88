// Package proc runs the processes perfmut starts (go build, go test, test
// binaries) the way cmd/go does: each in a process group of its own, with
// a context and a deadline, SIGQUIT then SIGKILL to the whole group when
// either passes, and nothing of the group left running when it returns.
// Linux children also die with perfmut (Pdeathsig); other systems have a
// fallback (proc_bsd.go, proc_windows.go).
package proc
