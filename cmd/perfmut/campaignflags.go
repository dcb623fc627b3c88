package main

import (
	"context"
	"flag"

	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/mutate"
)

// campaignFlags are the flags of how a campaign loads, builds, measures
// and decides (campaignSettings), registered once, here, for run and
// calibrate; compare registers the measurement ones (registerMeasure).
type campaignFlags struct {
	campaignSettings
	load loadFlags
}

// register registers the load and campaign flags; outDefault is -out's
// default.
func (f *campaignFlags) register(fs *flag.FlagSet, outDefault string) {
	f.load.register(fs)
	f.registerSettings(fs, outDefault)
}

// loadModule loads the module a campaign runs on; one in the read-only
// module cache is refused first (overlays cannot replace files there).
func (f *campaignFlags) loadModule(ctx context.Context, patterns []string) (*load.Loaded, error) {
	if root, err := mutate.ModuleRoot(ctx, f.load.DirOrDot()); err == nil {
		if err := runner.CheckModuleDir(ctx, root); err != nil {
			return nil, err
		}
	}
	return f.load.Load(ctx, patterns)
}

// loadFlags are the flags every command that loads a module shares (list,
// show, run, calibrate): the fields of a load.Loader.
type loadFlags struct{ load.Loader }

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

// registerChangedSince registers -changed-since on fs (run, list, generate,
// sensitivity), into *rev: what says what the command does with the lines
// changed since the revision, more anything it adds.
func registerChangedSince(fs *flag.FlagSet, rev *string, what, more string) {
	fs.StringVar(rev, "changed-since", "", what+" added or changed since git `rev` (from its merge base with HEAD, uncommitted edits included)"+more)
}
