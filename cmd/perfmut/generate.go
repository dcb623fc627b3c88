package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/generate"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/internal/outdir"
	"github.com/perfmut/perfmut/internal/report"
	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/results"
)

const generateUsage = `Usage: perfmut generate [flags] [packages]

Writes Go benchmarks for the functions no benchmark measures: those whose
mutants were no-coverage, survived or undecided in the campaign of -from
(default: -out, if it holds a report.json; else the mutants no benchmark's
timed loop runs).
Each benchmark calls its function in b.Loop with arguments captured from the
package's own tests (run once through a go test -overlay that records them). A
benchmark is kept only if it compiles, passes go vet, runs at the baseline, and
kills, measured as perfmut run measures, at least one of its function's
mutants. The files go to -out/generate/<package>/perfmut_gen_test.go; -write
also adds them to the module as new files (never over an existing one).
`

// generateFlags are perfmut generate's flags: the campaign flags and its own.
type generateFlags struct {
	campaignFlags
	from  string
	write bool
}

func (f *generateFlags) register(fs *flag.FlagSet) {
	f.campaignFlags.register(fs, "perfmut-out")
	fs.StringVar(&f.from, "from", "", "the results `dir`ectory of the campaign whose no-coverage, survived and undecided mutants are the targets (default: -out if it holds a report.json)")
	fs.BoolVar(&f.write, "write", false, "also write each generated file into its package as "+generate.FileName+" (refused if that file exists)")
	registerChangedSince(fs, &f.load.ChangedSince, "target only the functions with a mutant on a line", "; the concurrent benchmarks call them more often")
}

func cmdGenerate(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("perfmut generate", stderr, generateUsage)
	var f generateFlags
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	levels, rule, err := f.check()
	if err != nil {
		return err
	}
	if f.resume {
		return inputerr.Errorf("-resume continues an interrupted perfmut run; generate starts again each time: drop -resume")
	}
	if err := outdir.Check(f.out); err != nil {
		return &inputerr.Error{Err: err}
	}
	before, beforeDir, err := f.before()
	if err != nil {
		return err
	}
	if opt := generateOpt(flagSet(fs, "opt"), f.opt, before); opt != f.opt {
		f.opt = opt
		if levels, rule, err = f.check(); err != nil {
			return err
		}
	}
	patterns := patternsOrAll(fs.Args())
	f.load.ChangeLog = stderr
	ld, err := f.loadModule(ctx, patterns)
	if err != nil {
		return err
	}
	if before != nil && before.Module != ld.Program.Module.Path {
		return inputerr.Errorf("%s holds a campaign of module %s, not of %s; give its results directory with -from, or the campaign's module with -C", beforeDir, before.Module, ld.Program.Module.Path)
	}
	if f.write {
		if err := generate.CheckWrite(ld.Program.Packages); err != nil {
			return &inputerr.Error{Err: err}
		}
	}
	c := f.campaign(levels, rule, ld.Config, patterns, f.load.TagList())
	return generateFor(ctx, stdout, stderr, &f.campaignFlags, ld, c, patterns, before, beforeDir, f.write)
}

// generateFor runs perfmut generate on the loaded module with the
// campaign c's settings, targets from before (nil: found by coverage),
// prints the result and, when before is the report of the results
// directory beforeDir, marks the mutants a generated benchmark kills in
// it and renders its reports again.
func generateFor(ctx context.Context, stdout, stderr io.Writer, f *campaignFlags, ld *load.Loaded, c *runner.Campaign, patterns []string, before *results.Report, beforeDir string, write bool) error {
	c.Log, c.Progress = stderr, engine.IsTerminal(stderr)
	unlock, err := lockOut(c.Out)
	if err != nil {
		return err
	}
	defer unlock()
	res, err := generate.Run(ctx, generate.Config{
		Program: ld.Program, Mutants: ld.Mutants, Before: before, Campaign: c, Out: c.Out, Log: stderr,
		Load: f.copyLoader(patterns),
	})
	if err != nil {
		return err
	}
	if write {
		if err := res.WriteModule(); err != nil {
			return err
		}
	}
	res.Print(stdout)
	if beforeDir == "" || res.Annotate(before) == 0 {
		return nil
	}
	if !sameDir(beforeDir, c.Out) {
		unlock, err := lockOut(beforeDir)
		if err != nil {
			return err
		}
		defer unlock()
	}
	if err := results.WriteJSON(filepath.Join(beforeDir, runner.ReportFile), before); err != nil {
		return err
	}
	if err := report.WriteAll(beforeDir, before); err != nil {
		return fmt.Errorf("writing the reports: %w (report.json is complete; re-render with perfmut report %s)", err, beforeDir)
	}
	fmt.Fprintf(stdout, "marked the mutants they kill in %s and its reports\n", filepath.Join(beforeDir, runner.ReportFile))
	return nil
}

// lockOut creates the results directory dir (as run does: a later run
// or generate may write there again) and locks it until unlock.
func lockOut(dir string) (unlock func(), err error) {
	if err := outdir.Make(dir); err != nil {
		return nil, err
	}
	lock, err := outdir.Lock(dir)
	if err != nil {
		return nil, err
	}
	return func() { lock.Unlock() }, nil
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	ai, aerr := os.Stat(a)
	bi, berr := os.Stat(b)
	return aerr == nil && berr == nil && os.SameFile(ai, bi)
}

// copyLoader loads a copy of the module (at dir) as the module was
// loaded, with every mutant: the copy has no .git, and generate picks
// the mutants it verifies by ID.
func (f *campaignFlags) copyLoader(patterns []string) func(ctx context.Context, dir string) (*mutate.Program, []mutate.Mutant, error) {
	return func(ctx context.Context, dir string) (*mutate.Program, []mutate.Mutant, error) {
		l := f.load.Loader
		l.Dir, l.ChangeLog, l.ChangedSince, l.Mutants = dir, nil, "", ""
		if l.ConfigPath != "" && !filepath.IsAbs(l.ConfigPath) {
			l.ConfigPath = filepath.Join(f.load.DirOrDot(), l.ConfigPath)
		}
		got, err := l.Load(ctx, patterns)
		if err != nil {
			return nil, nil, err
		}
		return got.Program, got.Mutants, nil
	}
}

// generateAfter is perfmut run -generate: generate on the campaign's
// mutants (those run measured), reading its report rep in c.Out.
func (f *runFlags) generateAfter(ctx context.Context, stdout, stderr io.Writer, ld *load.Loaded, mutants []mutate.Mutant, c *runner.Campaign, patterns []string, rep *results.Report) error {
	if !f.gen {
		return nil
	}
	gld := *ld
	gld.Mutants = mutants
	return generateFor(ctx, stdout, stderr, &f.campaignFlags, &gld, c, patterns, rep, c.Out, false)
}

// before reads the campaign of -from, or of -out if it holds a report,
// and returns its results directory ("" for none).
func (f *generateFlags) before() (*results.Report, string, error) {
	dir := f.from
	if dir == "" {
		if _, err := os.Stat(filepath.Join(f.out, runner.ReportFile)); errors.Is(err, fs.ErrNotExist) {
			return nil, "", nil
		}
		dir = f.out
	}
	rep, dir, err := runner.ReadResults(dir)
	if err != nil {
		return nil, "", err
	}
	return rep, dir, nil
}

// generateOpt is the -opt of generate's verification: the flag when it is
// set, else the levels of the campaign whose results it reads (a campaign
// of the optimized level alone is not measured again unoptimized), else
// the flag's default.
func generateOpt(set bool, flagOpt string, before *results.Report) string {
	if set || before == nil || before.Settings.Opt == "" {
		return flagOpt
	}
	return before.Settings.Opt
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
