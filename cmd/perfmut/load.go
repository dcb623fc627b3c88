package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/perfmut/perfmut/changes"
	"github.com/perfmut/perfmut/config"
	"github.com/perfmut/perfmut/internal/english"
	"github.com/perfmut/perfmut/mutate"
	"github.com/perfmut/perfmut/operators"
)

// loadFlags are the flags every command that loads a module shares (list,
// show, run, calibrate).
type loadFlags struct {
	dir, configPath, operators, tags string
	// changedSince, if set, keeps only mutants on lines added or changed
	// since that git revision (see package changes). The flag is
	// registered by the commands that offer it.
	changedSince string
	// mutants, if set, keeps only the mutants with these comma-separated
	// IDs (or unique ID prefixes); see registerMutants.
	mutants string
}

// registerMutants adds -mutants to fs, for the commands that act on a
// selection of mutants (list, run).
func (lf *loadFlags) registerMutants(fs *flag.FlagSet) {
	fs.StringVar(&lf.mutants, "mutants", "", "comma-separated mutant `IDs` (or unique prefixes, as printed by perfmut list) to keep; e.g. re-run the survivors after adding a benchmark")
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
	for _, p := range patterns {
		if strings.HasPrefix(p, "-") {
			return nil, nil, nil, usageErrorf("flag %s after the packages: put flags before the package patterns (%s ./...)", p, p)
		}
	}
	dir := lf.dirOrDot()
	if fi, err := os.Stat(dir); err != nil {
		return nil, nil, nil, usageErrorf("-C %s: no such directory", lf.dir)
	} else if !fi.IsDir() {
		return nil, nil, nil, usageErrorf("-C %s is a file; -C takes the module's directory (or one inside it)", lf.dir)
	}
	root, err := mutate.ModuleRoot(ctx, dir)
	if err != nil {
		return nil, nil, nil, loadError(err)
	}
	cfg, err := lf.config(dir, root, mutate.Schema(operators.All))
	if err != nil {
		return nil, nil, nil, err
	}
	ops, err := lf.selectOperators(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	prog, err := mutate.Load(ctx, mutate.Options{Dir: dir, Patterns: patterns, Tags: lf.tagList(), Config: cfg, Operators: ops})
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
	mutants = dropUntestedMains(prog, cfg, mutants)
	if lf.changedSince != "" {
		lines, err := changes.Lines(ctx, prog.Module.Dir, lf.changedSince)
		if err != nil {
			return nil, nil, nil, usageError(err)
		}
		mutants = changes.Filter(mutants, lines)
	}
	if lf.mutants != "" {
		if mutants, err = selectMutants(mutants, lf.mutants); err != nil {
			return nil, nil, nil, usageError(err)
		}
	}
	return prog, mutants, cfg, nil
}

// selectMutants keeps the mutants named in list (comma-separated IDs or
// unique ID prefixes), in their generated order.
func selectMutants(mutants []mutate.Mutant, list string) ([]mutate.Mutant, error) {
	ids := make([]string, len(mutants))
	for i, m := range mutants {
		ids[i] = m.ID
	}
	sort.Strings(ids)
	want := map[string]bool{}
	for _, id := range strings.Split(list, ",") {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		full, err := resolveID(ids, id)
		if err != nil {
			return nil, fmt.Errorf("-mutants: %w", err)
		}
		want[full] = true
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("-mutants %q names no mutant ID; give IDs as printed by perfmut list, e.g. -mutants 1f238fb2b4fb,075215b5af18", list)
	}
	var kept []mutate.Mutant
	for _, m := range mutants {
		if want[m.ID] {
			kept = append(kept, m)
		}
	}
	return kept, nil
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
func (lf *loadFlags) config(dir, root string, schema config.Schema) (*config.Config, error) {
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
	cfg, err := config.Load(path, display, schema)
	if err != nil {
		return nil, usageError(err)
	}
	return cfg, nil
}

// selectOperators returns the enabled operators: -operators, else the
// config's operators:, else all.
func (lf *loadFlags) selectOperators(cfg *config.Config) ([]*mutate.Operator, error) {
	// The framework checks the operator list on every load, as
	// analysis.Validate does for analyzers, not only in tests.
	if err := operators.Validate(operators.All); err != nil {
		return nil, fmt.Errorf("invalid operator list: %w", err)
	}
	names := cfg.Operators
	if lf.operators != "" {
		names = nil
		for _, n := range strings.Split(lf.operators, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return nil, usageErrorf("-operators is empty; name at least one operator (perfmut list -h lists them)")
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
		return nil, usageErrorf("unknown operator %q in -operators %s", unknown[0], config.OperatorHint(unknown[0], operatorNames()))
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

// tagList is -tags as a list.
func (lf *loadFlags) tagList() []string {
	var tags []string
	for _, t := range strings.Split(lf.tags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	return tags
}

// dirOrDot is -C, or "." without it: the directory package patterns are
// relative to.
func (lf *loadFlags) dirOrDot() string {
	if lf.dir == "" {
		return "."
	}
	return lf.dir
}

// patternsOrAll is the package patterns given, or ./... without any.
func patternsOrAll(patterns []string) []string {
	if len(patterns) == 0 {
		return []string{"./..."}
	}
	return patterns
}
