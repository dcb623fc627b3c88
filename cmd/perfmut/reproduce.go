package main

import (
	"context"
	"flag"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/internal/runner"
	"github.com/perfmut/perfmut/results"
)

const reproduceUsage = `Usage: perfmut reproduce [-C dir] [-out DIR] [-count N] [-benchtime Nx] [-level opt|noopt] [-timeout d] ID

Check one verdict of a campaign with benchstat. It finds the mutant ID (a unique
prefix works) in DIR/report.json, builds the baseline's and the mutant's test
binaries (the mutant through go build -overlay: the module is only read), runs
each benchmark that measured it on both, alternately, -count times each at the
campaign's fixed iteration count (-test.benchtime Nx), writes the outputs to
DIR/reproduce/ID/LEVEL/base.txt and mut.txt, and prints benchstat's table and
whether it agrees with the verdict (killed <=> slower at p < 0.05).
`

// reproFlags are perfmut reproduce's flags.
type reproFlags struct {
	dir, config, out, benchtime, level string
	count                              int
	timeout                            time.Duration
}

func (f *reproFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "C", "", "the campaign's module `dir`ectory (like go -C; default: the one its report names, if it exists)")
	fs.StringVar(&f.config, "config", "", "configuration `file` the campaign used (default: perfmut.yaml at the module root, if any)")
	fs.StringVar(&f.out, "out", "perfmut-out", "the campaign's results `dir`ectory (holding report.json)")
	fs.IntVar(&f.count, "count", 20, "samples of each side (at least 4: fewer cannot reach p < 0.05)")
	fs.StringVar(&f.benchtime, "benchtime", "", "`N`x: run every sample at N iterations instead of the campaign's count")
	fs.StringVar(&f.level, "level", "", "optimization `level` to reproduce: opt or noopt (default: the first the mutant was measured at)")
	fs.DurationVar(&f.timeout, "timeout", runner.DefaultReproTimeout, "deadline of each benchmark process")
}

// check checks the flags and returns -benchtime's N (0 for none).
func (f *reproFlags) check(nargs int) (int, error) {
	if nargs != 1 {
		return 0, inputerr.Errorf("want one mutant ID, got %d arguments; see perfmut reproduce -h", nargs)
	}
	if f.count < 4 {
		return 0, inputerr.Errorf("-count %d: want at least 4 samples of each side (benchstat's test cannot reach p < 0.05 with fewer)", f.count)
	}
	if f.level != "" && f.level != results.Opt && f.level != results.NoOpt {
		return 0, inputerr.Errorf("-level %q: want opt or noopt", f.level)
	}
	if f.timeout <= 0 {
		return 0, inputerr.Errorf("-timeout %s: want a positive duration", f.timeout)
	}
	if f.benchtime == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSuffix(f.benchtime, "x"))
	if !strings.HasSuffix(f.benchtime, "x") || err != nil || n < 1 {
		return 0, inputerr.Errorf("-benchtime %q: want an iteration count such as 1000x (both sides run the same count)", f.benchtime)
	}
	return n, nil
}

func cmdReproduce(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("reproduce", stderr, reproduceUsage)
	var f reproFlags
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	n, err := f.check(fs.NArg())
	if err != nil {
		return err
	}
	id, err := load.CheckID(fs.Arg(0))
	if err != nil {
		return err
	}
	return runner.Reproduce(ctx, stdout, stderr, runner.ReproOptions{ID: id, Dir: f.dir, Config: f.config, Out: f.out,
		Count: f.count, N: n, Level: f.level, Timeout: f.timeout})
}
