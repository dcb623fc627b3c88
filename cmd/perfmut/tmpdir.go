package main

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"syscall"
)

// checkTempDir says in one line (bad input) when os.TempDir, where every
// command builds and runs its work, is not a writable directory: without
// it the go command and valgrind fail in ways that name something else.
// A command asked for its help (args) needs none.
func checkTempDir(args []string) error {
	if slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		return nil
	}
	dir := os.TempDir()
	fi, err := os.Stat(dir)
	var why string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = "no such directory"
	case errors.Is(err, syscall.ENOTDIR) || err == nil && !fi.IsDir():
		why = "not a directory"
	case err != nil:
		why = unwrapPathErr(err).Error()
	default:
		probe, err := os.MkdirTemp(dir, "perfmut-probe-")
		if err == nil {
			os.Remove(probe)
			return nil
		}
		why = "not writable: " + unwrapPathErr(err).Error()
	}
	return usageErrorf("TMPDIR %s: %s; perfmut builds and runs its work there: create it, or set TMPDIR to a writable directory", dir, why)
}

// unwrapPathErr is err without the path an *fs.PathError adds.
func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
