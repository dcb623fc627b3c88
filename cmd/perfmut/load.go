package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

// loadFlags are the flags every command that loads a module shares (list,
// show, run, calibrate).
type loadFlags struct {
	dir, configPath, operators, tags string
	// changedSince, if set, keeps only mutants on lines added or changed
	// since that git revision (git diff REV). The flag is registered by the
	// commands that offer it.
	changedSince string
}

// register adds -C, -config, -operators and -tags to fs.
func (lf *loadFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&lf.dir, "C", "", "change to `dir` before doing anything (like go -C)")
	fs.StringVar(&lf.configPath, "config", "", "configuration `file` (default: perfmut.yaml at the module root, if any)")
	fs.StringVar(&lf.operators, "operators", "", "comma-separated operator `names` to enable (default: the config's operators:, else all)")
	fs.StringVar(&lf.tags, "tags", "", "comma-separated build `tags`")
}

// load loads the configuration and the packages matching patterns and
// generates the mutants. Bad input (not a module, no matching packages, a
// package that does not type-check, a bad config or flag) comes back as a
// usage error.
func (lf *loadFlags) load(ctx context.Context, patterns []string) (*mutate.Program, []mutate.Mutant, *config.Config, error) {
	dir := lf.dir
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, nil, nil, usageErrorf("-C %s: no such directory", lf.dir)
	}
	root, err := mutate.ModuleRoot(ctx, dir)
	if err != nil {
		return nil, nil, nil, loadError(err)
	}
	known := operatorNames()
	cfg, err := lf.config(dir, root, known)
	if err != nil {
		return nil, nil, nil, err
	}
	ops, err := lf.selectOperators(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	var tags []string
	for _, t := range strings.Split(lf.tags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	prog, err := mutate.Load(ctx, mutate.Options{Dir: dir, Patterns: patterns, Tags: tags, Config: cfg, Operators: ops})
	if err != nil {
		return nil, nil, nil, loadError(err)
	}
	if err := cfg.CheckNames(prog); err != nil {
		return nil, nil, nil, usageError(err)
	}
	mutants, err := prog.Generate()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("generating mutants: %w", err)
	}
	if lf.changedSince != "" {
		changed, err := changedLines(ctx, prog.Module.Dir, lf.changedSince)
		if err != nil {
			return nil, nil, nil, err
		}
		kept := mutants[:0:0]
		for _, m := range mutants {
			if changed.contains(m.File, m.Line) {
				kept = append(kept, m)
			}
		}
		mutants = kept
	}
	return prog, mutants, cfg, nil
}

// loadError makes a mutate.Load error a usage error when the input is at
// fault.
func loadError(err error) error {
	if mutate.IsInputError(err) {
		return usageError(err)
	}
	return err
}

// config reads -config, or perfmut.yaml at the module root, or returns the
// defaults.
func (lf *loadFlags) config(dir, root string, known []string) (*config.Config, error) {
	path := lf.configPath
	display := path
	if path == "" {
		path = filepath.Join(root, config.FileName)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return config.Default(), nil
		}
		display = config.FileName
		if abs, err := filepath.Abs(dir); err == nil {
			if rel, err := filepath.Rel(abs, path); err == nil {
				display = rel
			}
		}
	} else if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	cfg, err := config.Load(path, display, known)
	if err != nil {
		return nil, usageError(err)
	}
	return cfg, nil
}

// selectOperators returns the enabled operators: -operators, else the
// config's operators:, else all.
func (lf *loadFlags) selectOperators(cfg *config.Config) ([]*mutate.Operator, error) {
	names := cfg.Operators
	if lf.operators != "" {
		names = nil
		for _, n := range strings.Split(lf.operators, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return nil, usageErrorf("-operators is empty; name at least one of: %s", strings.Join(operatorNames(), ", "))
		}
	}
	if len(names) == 0 {
		return append([]*mutate.Operator(nil), operators.All...), nil
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	var ops []*mutate.Operator
	for _, op := range operators.All {
		if want[op.Name] {
			ops = append(ops, op)
			delete(want, op.Name)
		}
	}
	if len(want) > 0 {
		var unknown []string
		for n := range want {
			unknown = append(unknown, n)
		}
		sort.Strings(unknown)
		return nil, usageErrorf("unknown operator %q in -operators (known: %s)", unknown[0], strings.Join(operatorNames(), ", "))
	}
	return ops, nil
}

// operatorNames lists the names of operators.All, sorted.
func operatorNames() []string {
	var names []string
	for _, op := range operators.All {
		names = append(names, op.Name)
	}
	sort.Strings(names)
	return names
}

// lineSet holds, per module-relative file, the added or changed lines.
type lineSet map[string]map[int]bool

func (s lineSet) contains(file string, line int) bool { return s[file][line] }

// changedLines runs git diff -U0 rev in the module and collects the
// new-side lines of every hunk.
func changedLines(ctx context.Context, modDir, rev string) (lineSet, error) {
	top, err := gitOutput(ctx, modDir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, usageErrorf("-changed-since needs a git checkout: %v", err)
	}
	out, err := gitOutput(ctx, modDir, "diff", "--no-color", "--no-ext-diff", "-U0", rev, "--", ".")
	if err != nil {
		return nil, usageErrorf("-changed-since %s: %v", rev, err)
	}
	top = strings.TrimSpace(top)
	set := lineSet{}
	var file string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "):
			file = ""
			if name, ok := strings.CutPrefix(line, "+++ b/"); ok {
				rel, err := filepath.Rel(modDir, filepath.Join(top, filepath.FromSlash(name)))
				if err == nil && !strings.HasPrefix(rel, "..") {
					file = filepath.ToSlash(rel)
				}
			}
		case strings.HasPrefix(line, "@@ ") && file != "":
			// @@ -a,b +c,d @@
			fields := strings.Fields(line)
			if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
				continue
			}
			start, count := fields[2][1:], "1"
			if i := strings.IndexByte(start, ','); i >= 0 {
				start, count = start[:i], start[i+1:]
			}
			s, err1 := strconv.Atoi(start)
			n, err2 := strconv.Atoi(count)
			if err1 != nil || err2 != nil {
				continue
			}
			if set[file] == nil {
				set[file] = map[int]bool{}
			}
			for l := s; l < s+n; l++ {
				set[file][l] = true
			}
		}
	}
	return set, nil
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return "", errors.New(msg)
	}
	return string(out), nil
}
