package generate

import (
	"context"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/speedgun"
)

// concurrent adds to each package's candidates the concurrent benchmarks
// (package speedgun) of its thread-safe types that call a target: the
// targets are its focus methods, and a concurrent benchmark's target is
// the union of the targets it calls.
func (cfg *Config) concurrent(ctx context.Context, e *engine.Engine, files []*pkgFile, res *Result) error {
	for _, f := range files {
		byFunc := map[string]*Target{}
		var focus []string
		for _, t := range res.Targets {
			if t.Package == f.pkg.ImportPath {
				byFunc[t.Function] = t
				focus = append(focus, t.Function)
			}
		}
		r, err := speedgun.Generate(ctx, speedgun.Config{Engine: e, Dir: cfg.Program.Module.Dir, Package: f.pkg, Focus: focus,
			Seed: cfg.Campaign.Seed, SampleTime: cfg.Campaign.SampleTime})
		if err != nil {
			return err
		}
		res.Builds += r.Builds
		for _, s := range r.Skipped {
			res.Skipped = append(res.Skipped, Skipped{Package: f.pkg.ImportPath, Function: s.Type, Reason: "no concurrent benchmark: " + s.Reason})
		}
		for _, b := range r.Benchmarks {
			t := &Target{Package: f.pkg.ImportPath, Function: b.Type, pkg: f.pkg}
			for _, fn := range b.Covers {
				if ft := byFunc[fn]; ft != nil {
					t.Mutants = append(t.Mutants, ft.Mutants...)
				}
			}
			if len(t.Mutants) == 0 {
				continue // it calls no target
			}
			f.taken[b.Name] = true
			f.cands = append(f.cands, &candidate{Target: t, Name: b.Name, Source: b.Source, Uses: b.Imports})
		}
	}
	return nil
}
