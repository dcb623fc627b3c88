package main

import (
	"context"
	"errors"
	"flag"

	"github.com/perfmut/perfmut/runner"
)

// loadFlags are the flags every command that loads a module shares (list,
// show, run, calibrate): the fields of a runner.Loader.
type loadFlags struct{ runner.Loader }

// register adds -C, -config, -operators and -tags to fs.
func (lf *loadFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&lf.Dir, "C", "", "change to `dir` before doing anything (like go -C)")
	fs.StringVar(&lf.ConfigPath, "config", "", "configuration `file` (default: perfmut.yaml at the module root, if any)")
	fs.StringVar(&lf.Operators, "operators", "", "comma-separated operator `names` to enable (default: the config's operators:, else all)")
	fs.StringVar(&lf.Tags, "tags", "", "comma-separated build `tags`")
}

// registerMutants adds -mutants to fs, for the commands that act on a
// selection of mutants (list, run).
func (lf *loadFlags) registerMutants(fs *flag.FlagSet) {
	fs.StringVar(&lf.Mutants, "mutants", "", "comma-separated mutant `IDs` (or unique prefixes, as printed by perfmut list) to keep; e.g. re-run the survivors after adding a benchmark")
}

// load loads the module (see runner.Loader.Load); bad input is a usage
// error.
func (lf *loadFlags) load(ctx context.Context, patterns []string) (*runner.Loaded, error) {
	ld, err := lf.Load(ctx, patterns)
	return ld, inputError(err)
}

// inputError makes a *runner.InputError a usage error (exit 2).
func inputError(err error) error {
	if errors.As(err, new(*runner.InputError)) {
		return usageError(err)
	}
	return err
}

// patternsOrAll is the package patterns given, or ./... without any.
func patternsOrAll(patterns []string) []string {
	if len(patterns) == 0 {
		return []string{"./..."}
	}
	return patterns
}
