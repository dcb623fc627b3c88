package proc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
)

// A GoCommand runs the go command as every build of perfmut's does (the
// campaign's, the map's, generate's): its own temporary directories
// (go-build*) go under Tmp, so that a perfmut killed with SIGKILL leaves
// none behind once the next run has removed its stale temporary
// directory; cancelling the context stops it and its children (Run).
type GoCommand struct {
	Tmp  string                           // perfmut's private temporary directory; "" = the system's
	Tags []string                         // build tags of every build
	Log  func(dir string, args ...string) // called with each go command before it runs; nil = none
}

// Run runs go with args in dir, without a timeout: a build takes as long
// as it takes, and ctx bounds it.
func (g GoCommand) Run(ctx context.Context, dir string, args ...string) (Result, error) {
	if g.Log != nil {
		g.Log(dir, args...)
	}
	var env []string // nil: perfmut's
	if g.Tmp != "" {
		gotmp := filepath.Join(g.Tmp, "gotmp")
		if err := os.MkdirAll(gotmp, 0o755); err != nil {
			return Result{}, err
		}
		env = append(os.Environ(), "GOTMPDIR="+gotmp)
	}
	return Run(ctx, dir, env, 0, "go", args...)
}

// TestC builds the test binaries of pkgs with go test -c into out (a file
// for one package; a directory ending in a slash for several), with the
// go build flags and the tags. go vet does not run (-vet=off): a mutant vet
// complains about still compiles, and vet took about half of each
// mutant's build. A package without test files gets no binary.
func (g GoCommand) TestC(ctx context.Context, dir, out string, flags []string, pkgs ...string) (Result, error) {
	return g.Run(ctx, dir, g.args([]string{"test", "-c", "-vet=off", "-o", out}, flags, pkgs)...)
}

// Build compiles pkgs with go build into out (os.DevNull discards the
// result), with the go build flags and the tags.
func (g GoCommand) Build(ctx context.Context, dir, out string, flags []string, pkgs ...string) (Result, error) {
	return g.Run(ctx, dir, g.args([]string{"build", "-o", out}, flags, pkgs)...)
}

// args is the go command line verb flags -tags pkgs.
func (g GoCommand) args(verb, flags, pkgs []string) []string {
	args := append(verb, flags...)
	if len(g.Tags) > 0 {
		args = append(args, "-tags", strings.Join(g.Tags, ","))
	}
	return append(args, pkgs...)
}
