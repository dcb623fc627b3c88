package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/results"
)

// GoTestC builds the test binary of pkg (an import path) into bin with
// go test -c (proc.GoCommand.TestC: without go vet), in dir (the module
// root or a copy of it). overlay, if not "", is a go build -overlay JSON
// file. It reports whether a binary was written (a package without test
// files gets none) and, on failure, the compiler's output as the error.
// A campaign that counts instructions links without DWARF (-ldflags=-w).
func (e *Engine) GoTestC(ctx context.Context, dir, pkg, bin, overlay string, level string, extra ...string) (bool, error) {
	flags := gcflags(level)
	if e.cfg.Counting != nil && level != "" {
		// Without DWARF a process starts faster under valgrind (0.31
		// CPU-seconds instead of 0.41); both sides are built alike.
		flags = append(flags, "-ldflags=-w")
	}
	if overlay != "" {
		flags = append(flags, "-overlay", overlay)
	}
	res, err := e.goCommand().TestC(ctx, dir, bin, append(flags, extra...), pkg)
	if err := buildErr(ctx, pkg, res, err); err != nil {
		return false, err
	}
	if _, err := os.Stat(bin); err != nil {
		return false, nil
	}
	return true, nil
}

// GoBuild compiles pkg with the overlay and discards the result: the
// compile check for a mutated package no test binary covers.
func (e *Engine) GoBuild(ctx context.Context, dir, pkg, overlay, level string) error {
	flags := gcflags(level)
	if overlay != "" {
		flags = append(flags, "-overlay", overlay)
	}
	res, err := e.goCommand().Build(ctx, dir, os.DevNull, flags, pkg)
	return buildErr(ctx, pkg, res, err)
}

// buildErr is the error of a build of pkg that ended with res and err: a
// *BuildError with the compiler's output when it failed, ctx's error when
// ctx stopped it.
func buildErr(ctx context.Context, pkg string, res proc.Result, err error) error {
	switch {
	case err != nil:
		return err
	case res.Canceled:
		return ctx.Err()
	case !res.OK():
		return &BuildError{pkg: pkg, out: string(bytes.TrimSpace(res.Output))}
	}
	return nil
}

// GoCmd runs the go command in dir as every build runs
// (proc.GoCommand.Run: its temporary directories under the run's private
// one, see removeStaleTemp), without a timeout; cancelling ctx kills it
// and its children.
func (e *Engine) GoCmd(ctx context.Context, dir string, args ...string) (proc.Result, error) {
	return e.goCommand().Run(ctx, dir, args...)
}

// goCommand is how the engine runs the go command: its temporary
// directories under e.Tmp, its build tags, each command logged with -v.
func (e *Engine) goCommand() proc.GoCommand {
	return proc.GoCommand{Tmp: e.Tmp, Tags: e.cfg.Tags, Log: func(dir string, args ...string) { e.LogCmd(dir, "go", args...) }}
}

// A BuildError is a failed go build: for a mutant, compile-error.
type BuildError struct {
	pkg string
	out string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("building %s: %s", e.pkg, e.out)
}

// Reason is the first meaningful lines of the compiler output.
func (e *BuildError) Reason() string {
	var lines []string
	for _, l := range strings.Split(e.out, "\n") {
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "FAIL") {
			continue
		}
		lines = append(lines, strings.TrimSpace(l))
		if len(lines) == 3 {
			break
		}
	}
	if len(lines) == 0 {
		return e.out
	}
	return strings.Join(lines, "; ")
}

// WriteOverlay writes files (absolute path -> content) under dir and the
// go build -overlay JSON that maps them. It returns the JSON's path and a
// replacer that turns the temporary file names in compiler messages back
// into the files' names relative to root.
func WriteOverlay(dir, root string, files map[string][]byte) (string, *strings.Replacer, error) {
	var pairs []string
	type overlayJSON struct {
		Replace map[string]string
	}
	ov := overlayJSON{Replace: map[string]string{}}
	i := 0
	for path, content := range files {
		f := filepath.Join(dir, fmt.Sprintf("%d_%s", i, filepath.Base(path)))
		i++
		if err := os.WriteFile(f, content, 0o644); err != nil {
			return "", nil, err
		}
		ov.Replace[path] = f
		rel, err := filepath.Rel(root, path)
		if err != nil {
			rel = path
		}
		pairs = append(pairs, f, filepath.ToSlash(rel))
		// The go command prints a file relative to its working directory
		// (the module root) when that is shorter: map that spelling too.
		if short, err := filepath.Rel(root, f); err == nil && short != f {
			pairs = append(pairs, short, filepath.ToSlash(rel))
		}
	}
	data, err := json.Marshal(ov)
	if err != nil {
		return "", nil, err
	}
	p := filepath.Join(dir, "overlay.json")
	return p, strings.NewReplacer(pairs...), os.WriteFile(p, data, 0o644)
}

// gcflags returns the go build flags of an optimization level.
func gcflags(level string) []string {
	if level == results.NoOpt {
		return []string{"-gcflags=all=-N -l"}
	}
	return nil
}

// SafeName turns an ID or import path into a file name.
func SafeName(s string) string {
	var b strings.Builder
	changed := false
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
			changed = true
		}
	}
	if changed {
		fmt.Fprintf(&b, "-%08x", fnv32(s))
	}
	return b.String()
}

func fnv32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}
