package instr

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// probeTimeout bounds each step of Available (go build, valgrind runs).
const probeTimeout = 2 * time.Minute

// Info describes a usable valgrind.
type Info struct {
	Path    string // the executable
	Version string // e.g. "3.19.0"
}

// An UnavailableError says that instruction counts cannot be measured here
// and how to make them available.
type UnavailableError struct {
	GOOS   string // the platform, which decides the advice
	Reason string // e.g. "valgrind is not installed (not found in PATH)"
}

// Error is one line: the reason, then what to do.
func (e *UnavailableError) Error() string {
	return "cannot count instructions: " + e.Reason + "; " + advice(e.GOOS)
}

// advice says how to get valgrind on goos, or to measure time instead.
func advice(goos string) string {
	if goos == "linux" {
		return "install the valgrind package (Debian or Ubuntu: apt-get install valgrind; Fedora: dnf install valgrind) or use -measure time"
	}
	return "count instructions on Linux with the valgrind package (Debian or Ubuntu: apt-get install valgrind) or use -measure time"
}

// Available reports whether valgrind can count the instructions of Go
// programs here: the platform is one valgrind runs Go on, valgrind (found
// in PATH) prints its version, and it runs a tiny Go program, built with
// the go command in a temporary directory, under cachegrind with the
// settings of a Sampler. The error is an *UnavailableError unless ctx
// ended.
//
// A command that counts instructions calls it first, before it builds or
// writes anything: on an *UnavailableError it prints the error (one line
// saying how to get valgrind) and exits 2. It takes a few seconds (a go
// build and a valgrind run); Check is the quick part.
func Available(ctx context.Context) (Info, error) {
	info, err := Check(ctx)
	if err != nil {
		return info, err
	}
	if err := probe(ctx, info.Path); err != nil {
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		return info, &UnavailableError{GOOS: runtime.GOOS, Reason: fmt.Sprintf("valgrind %s cannot run a Go program (%v)", info.Version, oneLine(err))}
	}
	return info, nil
}

// Check is Available without running a Go program: the platform and
// valgrind's version only.
func Check(ctx context.Context) (Info, error) {
	unavailable := func(reason string) error {
		return &UnavailableError{GOOS: runtime.GOOS, Reason: reason}
	}
	if reason := platformReason(runtime.GOOS, runtime.GOARCH); reason != "" {
		return Info{}, unavailable(reason)
	}
	path, err := exec.LookPath("valgrind")
	if err != nil {
		return Info{}, unavailable("valgrind is not installed (not found in PATH)")
	}
	out, err := runProc(ctx, "", nil, probeTimeout, path, "--version")
	if ctx.Err() != nil {
		return Info{}, ctx.Err()
	}
	version, ok := parseVersion(out)
	if err != nil || !ok {
		return Info{}, unavailable(fmt.Sprintf("%s --version did not print a version (%s)", path, lastLines(out, 1)))
	}
	return Info{Path: path, Version: version}, nil
}

// parseVersion returns the version valgrind --version printed
// ("valgrind-3.19.0" gives "3.19.0").
func parseVersion(out []byte) (string, bool) {
	v, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "valgrind-")
	if !ok || v == "" || strings.ContainsAny(v, " \n") {
		return "", false
	}
	return v, true
}

// tinyProgram is the Go program Available runs under valgrind: it makes
// the runtime start its threads and allocate.
const tinyProgram = `package main

import "fmt"

func main() {
	s := make([]string, 0)
	for i := range 1000 {
		s = append(s, fmt.Sprint(i))
	}
	fmt.Println(len(s))
}
`

// probe builds tinyProgram and counts its instructions under valgrind at
// path with the sampler's environment.
func probe(ctx context.Context, path string) error {
	dir, err := os.MkdirTemp("", "perfmut-instr-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src, bin := filepath.Join(dir, "main.go"), filepath.Join(dir, "tiny")
	if err := os.WriteFile(src, []byte(tinyProgram), 0o644); err != nil {
		return err
	}
	if _, err := runProc(ctx, dir, nil, probeTimeout, "go", "build", "-o", bin, src); err != nil {
		return fmt.Errorf("building a probe program: %w", err)
	}
	s := Sampler{Valgrind: path, Timeout: probeTimeout}
	file := filepath.Join(dir, "cachegrind.out")
	out, err := runProc(ctx, dir, s.env(), probeTimeout, path, "--tool=cachegrind", "--cache-sim=no", "--vgdb=no", "--cachegrind-out-file="+file, bin)
	var pe *procError
	if errors.As(err, &pe) {
		return errors.New(pe.what + ": " + lastLines(pe.output, 1))
	}
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(out)) == "" {
		return errors.New("the program printed nothing")
	}
	fh, err := os.Open(file)
	if err != nil {
		return errors.New("valgrind wrote no output file")
	}
	defer fh.Close()
	_, err = parseOutput(fh)
	return err
}

// oneLine joins the lines of err's message.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
