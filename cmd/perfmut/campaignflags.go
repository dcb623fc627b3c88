package main

import (
	"context"
	"flag"

	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/mutate"
)

// campaignFlags are the flags of how a campaign loads, builds, measures
// and decides (CampaignFlags), registered once, here, for run and
// calibrate; compare registers the measurement ones (RegisterMeasure).
type campaignFlags struct {
	CampaignFlags
	load loadFlags
}

// register registers the load and campaign flags; outDefault is -out's
// default.
func (f *campaignFlags) register(fs *flag.FlagSet, outDefault string) {
	f.load.Register(fs)
	f.Register(fs, outDefault)
}

// loadModule loads the module a campaign runs on; one in the read-only
// module cache is refused first (overlays cannot replace files there).
func (f *campaignFlags) loadModule(ctx context.Context, patterns []string) (*Loaded, error) {
	if root, err := mutate.ModuleRoot(ctx, f.load.DirOrDot()); err == nil {
		if err := runner.CheckModuleDir(ctx, root); err != nil {
			return nil, usageError(err)
		}
	}
	return f.load.load(ctx, patterns)
}

// loadFlags are the flags every command that loads a module shares (list,
// show, run, calibrate): the fields of a Loader.
type loadFlags struct{ Loader }

// load loads the module (see Loader.Load); bad input is a usage
// error.
func (lf *loadFlags) load(ctx context.Context, patterns []string) (*Loaded, error) {
	ld, err := lf.Load(ctx, patterns)
	return ld, inputError(err)
}
