package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/internal/inputerr"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

// A Loader loads a module's configuration and packages and generates the
// mutants a command acts on (perfmut list, show, run, calibrate). Its
// fields are the flags those commands share. Bad input (not a module, no
// matching packages, a package that does not type-check, a bad config or
// flag) comes back as an *inputerr.Error.
type Loader struct {
	Dir        string // -C: the directory the package patterns are relative to; "" = "."
	ConfigPath string // -config; "" = perfmut.yaml at the module root, if any
	Operators  string // -operators: comma-separated names; "" = the config's operators:, else all
	Tags       string // -tags: comma-separated build tags
	// ChangedSince, if set, keeps only mutants on lines added or changed
	// since that git revision (see package changes).
	ChangedSince string
	// Mutants, if set, keeps only the mutants with these comma-separated
	// IDs (or unique ID prefixes); it applies before ChangedSince.
	Mutants string
	// ChangeLog, if not nil, gets ChangedSince's summary of the changed
	// lines and the mutants on them (changes.Summary).
	ChangeLog io.Writer
}

// A Loaded is what Loader.Load loaded.
type Loaded struct {
	Program *mutate.Program
	Mutants []mutate.Mutant
	Config  *config.Config
	// Operators are the operator names asked for (-operators, else the
	// config's operators:); nil = all.
	Operators []string
}

// DirOrDot is Dir, or "." when it is empty.
func (l *Loader) DirOrDot() string {
	if l.Dir == "" {
		return "."
	}
	return l.Dir
}

// TagList is Tags as a list.
func (l *Loader) TagList() []string { return splitList(l.Tags) }

// splitList splits a comma-separated flag value, dropping spaces and empty
// names.
func splitList(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// Load loads the configuration and the packages matching patterns (./...
// when there are none) and generates the mutants.
func (l *Loader) Load(ctx context.Context, patterns []string) (*Loaded, error) {
	for _, p := range patterns {
		if strings.HasPrefix(p, "-") {
			return nil, inputerr.Errorf("flag %s after the packages: put flags before the package patterns (%s ./...)", p, p)
		}
	}
	_, cfg, err := l.Config(ctx)
	if err != nil {
		return nil, err
	}
	names, ops, err := l.selectOperators(cfg)
	if err != nil {
		return nil, err
	}
	prog, err := mutate.Load(ctx, mutate.Options{Dir: l.DirOrDot(), Patterns: patterns, Tags: l.TagList(), Config: cfg, Operators: ops})
	if err != nil {
		return nil, err
	}
	if err := cfg.CheckNames(prog); err != nil {
		return nil, &inputerr.Error{Err: err}
	}
	mutants, err := prog.Generate()
	if err != nil {
		return nil, fmt.Errorf("generating mutants: %w", err)
	}
	mutants = dropUntestedMains(prog, cfg, mutants)
	if l.Mutants != "" {
		if mutants, err = selectMutants(mutants, l.Mutants); err != nil {
			return nil, &inputerr.Error{Err: err}
		}
	}
	if l.ChangedSince != "" {
		lines, err := changes.Lines(ctx, prog.Module.Dir, l.ChangedSince)
		if err != nil {
			return nil, &inputerr.Error{Err: err}
		}
		kept := changes.Filter(mutants, lines)
		if l.ChangeLog != nil {
			if err := changes.Summary(l.ChangeLog, l.ChangedSince, lines, mutants, kept); err != nil {
				return nil, err
			}
		}
		mutants = kept
	}
	return &Loaded{Program: prog, Mutants: mutants, Config: cfg, Operators: names}, nil
}

// Config reads the configuration: -config, or perfmut.yaml at the root of
// the module holding Dir, or the defaults. It returns the module root too.
func (l *Loader) Config(ctx context.Context) (root string, cfg *config.Config, err error) {
	dir := l.DirOrDot()
	if fi, err := os.Stat(dir); err != nil {
		return "", nil, inputerr.Errorf("-C %s: no such directory", l.Dir)
	} else if !fi.IsDir() {
		return "", nil, inputerr.Errorf("-C %s is a file; -C takes the module's directory (or one inside it)", l.Dir)
	}
	if root, err = mutate.ModuleRoot(ctx, dir); err != nil {
		return "", nil, err
	}
	path := l.ConfigPath
	display := path
	if path == "" {
		path = filepath.Join(root, config.FileName)
		// Lstat: a symbolic link to nothing is an error (config.Load
		// says so), not the absence of a configuration.
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			return root, config.Default(), nil
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
	if cfg, err = config.Load(path, display, mutate.Schema(operators.All)); err != nil {
		return "", nil, &inputerr.Error{Err: err}
	}
	return root, cfg, nil
}

// selectOperators returns the names asked for (-operators, else the
// config's operators:; nil = all) and the enabled operators.
func (l *Loader) selectOperators(cfg *config.Config) ([]string, []*mutate.Operator, error) {
	// The framework checks the operator list on every load, as
	// analysis.Validate does for analyzers, not only in tests.
	if err := operators.Validate(operators.All); err != nil {
		return nil, nil, fmt.Errorf("invalid operator list: %w", err)
	}
	names := cfg.Operators
	if l.Operators != "" {
		if names = splitList(l.Operators); len(names) == 0 {
			return nil, nil, &inputerr.Error{Err: errors.New("-operators is empty; name at least one operator (perfmut list -h lists them)")}
		}
	}
	if len(names) == 0 {
		return names, slices.Clone(operators.All), nil
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
		unknown := slices.Sorted(maps.Keys(want))
		return nil, nil, inputerr.Errorf("unknown operator %q in -operators %s", unknown[0], config.OperatorHint(unknown[0], operatorNames()))
	}
	return names, ops, nil
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

// dropUntestedMains leaves out the mutants of main packages without test
// files (examples, tools): no test or benchmark can reach them, so they
// would only count as no-coverage. A package named in packages.include
// (its import path or ./dir) keeps its mutants. It adds a warning saying
// what it left out.
func dropUntestedMains(prog *mutate.Program, cfg *config.Config, ms []mutate.Mutant) []mutate.Mutant {
	dropped := map[string]bool{}
	for _, p := range prog.Packages {
		if p.Name != "main" || slices.ContainsFunc(cfg.Packages.Include, func(inc string) bool {
			return inc == p.ImportPath || prog.Module.Path+strings.TrimPrefix(inc, ".") == p.ImportPath
		}) {
			continue
		}
		if tests, _ := filepath.Glob(filepath.Join(p.Dir, "*_test.go")); len(tests) == 0 {
			dropped[p.ImportPath] = true
		}
	}
	if len(dropped) == 0 {
		return ms
	}
	var kept []mutate.Mutant
	for _, m := range ms {
		if !dropped[m.Package] {
			kept = append(kept, m)
		}
	}
	if n := len(ms) - len(kept); n > 0 {
		pkgs := slices.Sorted(maps.Keys(dropped))
		names := strings.Join(pkgs, ", ")
		if len(pkgs) > 3 {
			names = strings.Join(pkgs[:3], ", ") + fmt.Sprintf(" and %d more", len(pkgs)-3)
		}
		prog.Warnings = append(prog.Warnings, fmt.Sprintf("left out %d %s of %d main %s without tests (%s): no test or benchmark reaches them; name one in packages.include to mutate it",
			n, english.Word(n, "mutant"), len(pkgs), english.Word(len(pkgs), "package"), names))
	}
	return kept
}
