// Command perfmut is performance mutation testing for Go: it injects
// slowdowns that keep behaviour into a module's code and reports which ones
// no benchmark notices.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/perfmut/perfmut/internal/inputerr"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	os.Exit(code)
}

// Exit codes: ok, an error, bad usage or input, a score (compare: a
// slowdown) beyond its threshold.
const exitOK, exitError, exitUsage, exitThreshold = 0, 1, 2, 3

// A command is one perfmut subcommand.
type command struct {
	name  string
	short string
	run   func(ctx context.Context, stdout, stderr io.Writer, args []string) error
}

func commands() []command {
	return []command{
		{"list", "list the mutants that would be generated", cmdList},
		{"show", "print mutants' diffs", cmdShow},
		{"run", "run a mutation campaign", cmdRun},
		{"merge", "merge shard results into one report", cmdMerge},
		{"report", "re-render the reports of a results directory", cmdReport},
		{"calibrate", "measure the false-kill rate with A/A runs", cmdCalibrate},
		{"compare", "compare the benchmarks of two git revisions (a regression gate)", cmdCompare},
		{"reproduce", "check one verdict with benchstat: baseline and mutant run alternately", cmdReproduce},
		{"sensitivity", "the smallest slowdown of each function that some benchmark notices", cmdSensitivity},
		{"generate", "write benchmarks, verified to kill mutants, for the functions no benchmark measures", cmdGenerate},
	}
}

// exitErr carries a specific exit code: a score below -min-score (compare:
// a slowdown beyond -max-slowdown) exits 3. Bad input (an *inputerr.Error,
// whichever package found it) exits 2, everything else 1.
type exitErr struct {
	code int
	err  error
}

func (e *exitErr) Error() string { return e.err.Error() }
func (e *exitErr) Unwrap() error { return e.err }

func run(ctx context.Context, stdout, stderr io.Writer, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := checkTempDir(args[1:])
		out := &outWriter{w: stdout}
		if err == nil {
			err = c.run(ctx, out, stderr, args[1:])
		}
		if err == nil {
			err = out.writeErr()
		}
		if err == nil || errors.Is(err, errHelp) {
			return exitOK // -h printed the usage: exit 0, as perfmut -h
		}
		code := exitError
		var ee *exitErr
		if errors.As(err, &ee) {
			code = ee.code
		} else if errors.As(err, new(*inputerr.Error)) {
			code = exitUsage // bad input, wherever it was found
		}
		fmt.Fprintf(stderr, "perfmut %s: %v\n", c.name, err)
		return code
	}
	fmt.Fprintf(stderr, "perfmut: unknown command %q; run 'perfmut help' for the list\n", args[0])
	return exitUsage
}

// newFlagSet is a command's flag set: errors and -h print usage, then
// the flags, to stderr.
func newFlagSet(name string, stderr io.Writer, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printUsage(fs, stderr, usage) }
	return fs
}

// printUsage prints a command's help in the one style every command
// shares: its usage text ("Usage: perfmut CMD ...", a blank line, what it
// does), then "Flags:" and the flags.
func printUsage(fs *flag.FlagSet, w io.Writer, usage string) {
	fmt.Fprint(w, usage)
	fmt.Fprint(w, "\nFlags:\n")
	fs.PrintDefaults()
}

// parseFlags parses args into fs: -h prints the usage; a bad flag comes
// back as one usage error line (the flag package would print the usage
// around it), saying where the flags are listed.
func parseFlags(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		usage()
		return errHelp
	}
	return inputerr.Errorf("%v (perfmut %s -h lists the flags)", err, strings.TrimPrefix(fs.Name(), "perfmut "))
}

// errHelp is returned after -h printed the usage: the command exits 0.
var errHelp = errors.New("help requested")

func usage(w io.Writer) {
	fmt.Fprintln(w, "perfmut: performance mutation testing for Go benchmarks")
	fmt.Fprintln(w, "\nUsage: perfmut <command> [flags] [packages]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w, "\nRun 'perfmut <command> -h' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 error, 2 usage or bad input, 3 score below -min-score (compare: slower beyond -max-slowdown).")
}

// patternsOrAll is the package patterns given, or ./... without any.
func patternsOrAll(patterns []string) []string {
	if len(patterns) == 0 {
		return []string{"./..."}
	}
	return patterns
}
