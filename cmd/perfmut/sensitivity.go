package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/score"
)

const sensitivityUsage = "Usage: perfmut sensitivity [flags] [packages]\n\nFor every function of the packages (default ./...), the smallest factor by which it must slow down for\nsome benchmark to notice, from a CPU-profiled run of each benchmark on the baseline (docs/sensitivity.md).\n"

// sensitivityFlags are perfmut sensitivity's flags.
type sensitivityFlags struct {
	load         loadFlags
	asJSON       bool
	verbose      bool
	rule         ruleFlags // -alpha, -max-samples and -test
	sampleTime   time.Duration
	noiseSamples int
	profileTime  time.Duration
	benchTO      time.Duration
	jobs         int
	changedSince string
	warnFactor   float64
}

func cmdSensitivity(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("perfmut sensitivity", stderr, sensitivityUsage)
	var f sensitivityFlags
	f.load.register(fs)
	fs.BoolVar(&f.asJSON, "json", false, "print the map as JSON")
	fs.BoolVar(&f.verbose, "v", false, "print one line per benchmark as it is mapped")
	f.rule.register(fs, mapRuleHelp())
	fs.DurationVar(&f.sampleTime, "sample-time", engine.DefaultSampleTime, "the campaign's sample length: the noise samples' length")
	fs.IntVar(&f.noiseSamples, "noise-samples", 5, "the fewest rounds of each benchmark's profiled run, each a noise sample")
	fs.DurationVar(&f.profileTime, "profile-time", 100*time.Millisecond, "about how long each benchmark's profiled run takes: max(-noise-samples, this / -sample-time) rounds of -sample-time")
	fs.DurationVar(&f.benchTO, "bench-timeout", engine.DefaultBenchTimeout, "deadline of each benchmark process")
	fs.IntVar(&f.jobs, "j", 2, "coverage runs at once (the profiled runs run one at a time)")
	registerChangedSince(fs, &f.changedSince, "also say what protects each function with a line", "")
	registerWarnFactor(fs, &f.warnFactor, "the output")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	ld, err := f.load.Load(ctx, fs.Args())
	if err != nil {
		return err
	}
	opts.Pkgs = ld.Program.Packages
	opts.Tags = f.load.TagList()
	if f.verbose {
		opts.Log = stderr
	}
	m, err := detect.Compute(ctx, opts)
	if err != nil && ctx.Err() != nil {
		return errors.New("interrupted: no map (the module is as it was; the temporary directory is removed)")
	}
	if err != nil {
		return err
	}
	var notes []detect.Note
	if f.changedSince != "" {
		if notes, err = detect.NotesSince(ctx, opts.Pkgs, ld.Program.Module.Dir, f.changedSince, m, f.warnFactor); err != nil {
			return &inputerr.Error{Err: err} // it names -changed-since and the revision
		}
	}
	return f.write(stdout, m, notes)
}

// write prints the map, and the notes on the changed functions when
// -changed-since asked for them.
func (f *sensitivityFlags) write(w io.Writer, m *detect.Map, notes []detect.Note) error {
	if f.asJSON {
		if f.changedSince == "" {
			return detect.WriteJSON(w, m)
		}
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(&struct {
			*detect.Map
			Changed []detect.Note `json:"changed_functions"`
		}{m, notes})
	}
	if err := detect.WriteText(w, m); err != nil || f.changedSince == "" {
		return err
	}
	return detect.WriteNotes(w, f.changedSince, notes, f.warnFactor)
}

// options checks the flags and returns the map's options (without the
// packages).
func (f *sensitivityFlags) options() (detect.Options, error) {
	t, err := f.rule.check()
	if err != nil {
		return detect.Options{}, err
	}
	// The budget of a campaign run rejects: no factor would hold for it.
	if err := (score.Rule{MaxSamples: f.rule.maxSamples, Alpha: f.rule.alpha, Test: t}).Validate(); err != nil {
		return detect.Options{}, &inputerr.Error{Err: err}
	}
	switch {
	case f.noiseSamples < 2:
		return detect.Options{}, inputerr.Errorf("-noise-samples %d out of range: the noise needs at least 2 samples, e.g. 5", f.noiseSamples)
	case f.jobs < 1:
		return detect.Options{}, inputerr.Errorf("-j %d out of range: want at least 1, e.g. 2", f.jobs)
	case f.sampleTime <= 0 || f.profileTime <= 0 || f.benchTO <= 0:
		return detect.Options{}, inputerr.Errorf("-sample-time, -profile-time and -bench-timeout must be positive durations, e.g. 20ms, 1s, 2m")
	}
	o := detect.Options{SampleTime: f.sampleTime, NoiseSamples: f.noiseSamples, ProfileTime: f.profileTime,
		Budget: f.rule.maxSamples, Alpha: f.rule.alpha, Test: t, Timeout: f.benchTO, Jobs: f.jobs}
	return o, nil
}
