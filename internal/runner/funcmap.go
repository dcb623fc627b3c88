package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/srcgraph"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

// functionMapFile, in the results directory, holds the campaign's
// detectability map and what it depends on, for a later campaign's
// -since (and a resumed one) to reuse.
const functionMapFile = "function-map.json"

// The map's profiled run in a campaign: at least mapNoiseSamples rounds,
// about mapProfileTime long (perfmut sensitivity's defaults).
const (
	mapNoiseSamples = 5
	mapProfileTime  = 100 * time.Millisecond
)

// mapFile is functionMapFile's content.
type mapFile struct {
	Key mapKey      `json:"key"`
	Map *detect.Map `json:"map"`
}

// mapKey is what the map depends on: the Go version, the machine, the
// settings that change verdicts (the sample budget, level, test and
// sample time among them), go.mod and go.sum, and the content of every
// package in scope.
type mapKey struct {
	Go       string            `json:"go"`
	Machine  string            `json:"machine"`
	Settings string            `json:"settings"`
	Packages map[string]string `json:"packages"`
}

// functionMap makes the campaign's detectability map (detect.Compute on
// the loaded packages, mutated ones and their importers), or reuses the
// one in -since's or the resumed run's results directory when nothing it
// depends on changed, and puts its rows, its cost and the notes of the
// functions changed since -changed-since into rep. A map that cannot be
// made is a warning of the report; the error is ctx's, when cancelled.
// in is what the campaign's verdicts depend on (the map's key). counts
// are the engine's cached baseline counts (none without -measure
// instructions): a computed map takes the counted benchmarks' detectable
// ratios from them (mapCounts).
func (c *Campaign) functionMap(ctx context.Context, in *results.Inputs, prog *engine.Progress, rep *results.Report, counts baselineCounts) error {
	if !c.Settings.FunctionMap || in == nil {
		return nil
	}
	m, reused, err := c.makeMap(ctx, in, prog, rep, c.Packages, counts)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rep.Warnings = append(rep.Warnings, err.Error())
		return nil
	}
	rep.FunctionSensitivity, rep.FunctionMap = mapRows(m), mapInfo(m, reused)
	if c.Settings.ChangedSince == "" {
		return nil
	}
	notes, err := changedNotes(ctx, c.Packages, c.Module.Dir, c.Settings.ChangedSince, m, c.Settings.WarnFactor)
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("no notes on the functions changed since %s: %v", c.Settings.ChangedSince, err))
	}
	rep.ChangedFunctions = notes
	return nil
}

// makeMap reuses the map of the resumed run's or -since's results
// directory (reused: -since's) when nothing it depends on changed, or
// computes it, and keeps it in the results directory for a later -since
// (a warning of rep when it cannot).
func (c *Campaign) makeMap(ctx context.Context, in *results.Inputs, prog *engine.Progress, rep *results.Report, pkgs []*mutate.Package, counts baselineCounts) (m *detect.Map, reused bool, err error) {
	key := mapKey{Go: in.Go, Machine: in.Machine, Settings: in.Settings, Packages: in.Packages}
	m, reused = reusableMap(key, c.Out, c.Since)
	if m != nil && !reused {
		return m, false, nil // already in the results directory
	}
	if m == nil {
		prog.Logf("perfmut: mapping each function's sensitivity (%s; bounded: see -plan)", english.Plural(len(pkgs), "package"))
		if m, err = detect.Compute(ctx, c.mapOptions(pkgs)); err != nil {
			return nil, false, fmt.Errorf("no function sensitivity map: %w (-function-map=false leaves it out)", err)
		}
		m = c.mapCounts(m, counts)
	}
	if err := results.WriteJSON(filepath.Join(c.Out, functionMapFile), mapFile{key, m}); err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the function sensitivity map is not kept for -since: %v", err))
	}
	return m, reused, nil
}

// reusableMap returns the map of the results directory out (a resumed
// run) or since (-since), the first whose key is key, and whether it came
// from since; nil when neither has one.
func reusableMap(key mapKey, out, since string) (*detect.Map, bool) {
	for _, dir := range []string{out, since} {
		if dir == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, functionMapFile))
		if err != nil {
			continue
		}
		var f mapFile
		if json.Unmarshal(data, &f) != nil || f.Map == nil || !sameKey(f.Key, key) {
			continue
		}
		return f.Map, dir == since
	}
	return nil, false
}

// sameKey reports whether two maps' inputs are the same.
func sameKey(a, b mapKey) bool {
	return a.Go == b.Go && a.Machine == b.Machine && a.Settings == b.Settings && maps.Equal(a.Packages, b.Packages)
}

// mapRows is m's rows as report.json holds them, worst protected first.
func mapRows(m *detect.Map) []results.FunctionSensitivity {
	out := make([]results.FunctionSensitivity, 0, len(m.Functions))
	for _, r := range m.Functions {
		out = append(out, results.FunctionSensitivity{Package: r.Package, Function: r.Function, Status: string(r.Status),
			Factor: r.Factor, AtLeast: r.AtLeast, FactorLow: r.FactorLow, FactorHigh: r.FactorHigh, Benchmark: r.Benchmark,
			Share: r.Share, ShareLow: r.ShareLow, ShareHigh: r.ShareHigh, FlatShare: r.FlatShare, Samples: r.Samples})
	}
	return out
}

// mapInfo is how m was made; reused: read from -since's directory.
func mapInfo(m *detect.Map, reused bool) *results.FunctionMap {
	info := &results.FunctionMap{Benchmarks: len(m.Benchmarks), Reused: reused}
	if !reused {
		info.BuildSeconds, info.CoverageSeconds = m.Cost.Build.Seconds(), m.Cost.Coverage.Seconds()
		info.CalibrateSeconds, info.ProfileSeconds = m.Cost.Calibrate.Seconds(), m.Cost.Profile.Seconds()
	}
	for _, s := range m.Skipped {
		info.Skipped = append(info.Skipped, s.Benchmark+": "+s.Reason)
	}
	info.Counted = m.Counted()
	return info
}

// changedNotes are the notes of the functions of pkgs with a line changed
// since rev (in the module at dir): what protects each.
func changedNotes(ctx context.Context, pkgs []*mutate.Package, dir, rev string, m *detect.Map, warn float64) ([]results.FunctionNote, error) {
	notes, err := detect.NotesSince(ctx, pkgs, dir, rev, m, warn)
	if err != nil {
		return nil, err
	}
	pos, err := detect.Positions(pkgs, dir)
	if err != nil {
		return nil, err
	}
	var out []results.FunctionNote
	for _, n := range notes {
		p := pos[n.Function]
		out = append(out, results.FunctionNote{Function: n.Function, File: p.File, Line: p.Line, Status: string(n.Status),
			Factor: n.Factor, AtLeast: n.AtLeast, Benchmark: n.Benchmark, Share: n.Share, Warning: n.Warning, Text: n.Text})
	}
	return out, nil
}

// MapPlan bounds the campaign's map for its plan (-plan): its
// benchmarks and packages as the source names them; nil when the
// campaign makes no map.
func (c *Campaign) MapPlan() *results.PlanMap {
	if !c.Settings.FunctionMap {
		return nil
	}
	g := srcgraph.Scan(c.Packages)
	pkgs := 0
	for p := range g.TestFiles {
		if g.TestFiles[p] {
			pkgs++
		}
	}
	o := c.mapOptions(nil)
	return results.MapBound(countRoots(g.Benches), pkgs, o.Rounds(), o.SampleTime)
}

// mapOptions are the map's options for pkgs: the campaign's sample time,
// budget, level, test, deadline and jobs, and perfmut sensitivity's
// default profiled run.
func (c *Campaign) mapOptions(pkgs []*mutate.Package) detect.Options {
	sample := c.SampleTime
	if sample <= 0 {
		sample = engine.DefaultSampleTime
	}
	return detect.Options{Pkgs: pkgs, Tags: c.Tags, SampleTime: sample, NoiseSamples: mapNoiseSamples,
		ProfileTime: mapProfileTime, Budget: c.Rule.MaxSamples, Alpha: c.Rule.Alpha, Test: c.Rule.Test,
		Timeout: c.BenchTimeout, Jobs: c.Jobs}
}
