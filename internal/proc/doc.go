// Package proc starts every process perfmut runs (go build, go test, test
// binaries, valgrind, git, go list) the way cmd/go does: each in a process
// group of its own (Command), with a context and a deadline, SIGQUIT then
// SIGKILL (WaitDelay) to the whole group when either passes, and nothing
// of the group left running when it returns (Run). GoCommand runs the go
// command for every build, its temporary directories under perfmut's own.
// Linux children also die with perfmut (Pdeathsig); other systems have a
// fallback (proc_bsd.go, proc_windows.go).
package proc
