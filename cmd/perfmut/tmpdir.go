package main

import (
	"slices"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/outdir"
)

// checkTempDir says in one line (bad input) when the temporary directory
// is not a writable directory (outdir.CheckTemp). A command asked for its
// help (args) needs none.
func checkTempDir(args []string) error {
	if slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		return nil
	}
	if err := outdir.CheckTemp(); err != nil {
		return &inputerr.Error{Err: err}
	}
	return nil
}
