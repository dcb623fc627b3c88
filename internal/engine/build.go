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
// go test -c, in dir (the module root or a copy of it). overlay, if not "",
// is a go build -overlay JSON file. It reports whether a binary was written
// (a package without test files gets none) and, on failure, the compiler's
// output as the error.
//
// go vet does not run (-vet=off): a mutant vet complains about still
// compiles, and vet took about half of each mutant's build. A campaign
// that counts instructions links without DWARF (-ldflags=-w).
func (e *Engine) GoTestC(ctx context.Context, dir, pkg, bin, overlay string, level string, extra ...string) (bool, error) {
	args := []string{"test", "-c", "-vet=off", "-o", bin}
	args = append(args, gcflags(level)...)
	if e.cfg.Counting != nil && level != "" {
		// Without DWARF a process starts faster under valgrind (0.31
		// CPU-seconds instead of 0.41); both sides are built alike.
		args = append(args, "-ldflags=-w")
	}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	if len(e.cfg.Tags) > 0 {
		args = append(args, "-tags", strings.Join(e.cfg.Tags, ","))
	}
	args = append(args, extra...)
	args = append(args, pkg)
	res, err := e.GoCmd(ctx, dir, args...)
	if err != nil {
		return false, err
	}
	if !res.OK() {
		if res.Canceled {
			return false, ctx.Err()
		}
		return false, &BuildError{pkg: pkg, out: string(bytes.TrimSpace(res.Output))}
	}
	if _, err := os.Stat(bin); err != nil {
		return false, nil
	}
	return true, nil
}

// GoBuild compiles pkg with the overlay and discards the result: the
// compile check for a mutated package no test binary covers.
func (e *Engine) GoBuild(ctx context.Context, dir, pkg, overlay, level string) error {
	args := []string{"build", "-o", os.DevNull}
	args = append(args, gcflags(level)...)
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	if len(e.cfg.Tags) > 0 {
		args = append(args, "-tags", strings.Join(e.cfg.Tags, ","))
	}
	args = append(args, pkg)
	res, err := e.GoCmd(ctx, dir, args...)
	if err != nil {
		return err
	}
	if !res.OK() {
		if res.Canceled {
			return ctx.Err()
		}
		return &BuildError{pkg: pkg, out: string(bytes.TrimSpace(res.Output))}
	}
	return nil
}

// GoCmd runs the go command in dir, without a timeout; cancelling ctx
// kills it and its children. The go command's own temporary directories
// (go-build*) go under the run's private temp dir, so that a perfmut
// killed with SIGKILL leaves none behind once the next run has removed
// the stale temp dir (see removeStaleTemp).
func (e *Engine) GoCmd(ctx context.Context, dir string, args ...string) (proc.Result, error) {
	e.LogCmd(dir, "go", args...)
	var env []string
	if e.Tmp != "" {
		gotmp := filepath.Join(e.Tmp, "gotmp")
		if err := os.MkdirAll(gotmp, 0o755); err != nil {
			return proc.Result{}, err
		}
		env = append(os.Environ(), "GOTMPDIR="+gotmp)
	}
	return proc.Run(ctx, dir, env, 0, "go", args...)
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
